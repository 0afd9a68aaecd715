/**
 * `prerender=auto`: the fetched HTML is not worth extracting when it is an empty application
 * shell (scripts and a mount point, almost no text) or a bot challenge interstitial.
 */
const CHALLENGE =
  /(cf-browser-verification|challenge-platform|cf_chl_|just a moment\.\.\.|checking your browser|enable javascript and cookies|captcha-delivery|px-captcha|_incapsula_|ddos-guard)/i;

export function needsPrerender(html: string, statusCode: number): boolean {
  if ((statusCode === 403 || statusCode === 503 || statusCode === 429) && CHALLENGE.test(html)) {
    return true;
  }
  if (html.length > 200_000) return false;
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  const text = body
    .replace(/<(script|style|noscript|template)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const hasScripts = /<script\b[^>]*\bsrc=/i.test(html);
  const hasMeta = /<meta[^>]+(property|name)=["']?(og:title|twitter:title|description)/i.test(html);
  return hasScripts && !hasMeta && text.length < 80;
}
