/**
 * Imitations of what `prerender=auto` meets, each with the markers its real counterpart carries
 * (abridged from the public markup of those interstitials and frameworks' default templates).
 * Challenges end with the script that "solves" them here: it sets a cookie and reloads, as the
 * real ones do once satisfied; shells load a script that mounts the article.
 */
import type { PrerenderReason } from "../../lib/api/prerender.ts";

export interface Imitation {
  name: string;
  status: number;
  html: string;
  reason: PrerenderReason;
}

/** What a solved challenge or a mounted shell shows. */
export const REAL_TITLE = "Real article";
export const REAL_PAGE = `<!doctype html><html><head><title>${REAL_TITLE}</title>
<meta name="description" content="The article behind the wall."></head><body><article>
<h1>${REAL_TITLE}</h1><p>${"Text of the article. ".repeat(20)}</p></article></body></html>`;
/** Served for every `.js` path: what a shell's bundle does. */
export const MOUNT_SCRIPT = `document.title = ${JSON.stringify(REAL_TITLE)};
const mount = document.querySelector("#root,#app,#__next,#__nuxt,app-root,#svelte") ?? document.body;
mount.innerHTML = "<article><h1>${REAL_TITLE}</h1><p>${
  "Made by script. ".repeat(10)
}</p></article>";`;

const SOLVE = `<script>document.cookie = "solved=1; path=/"; location.reload();</script>`;

export const CHALLENGES: Imitation[] = [
  {
    name: "cloudflare",
    status: 403,
    reason: "challenge",
    html: `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="X-UA-Compatible" content="IE=Edge"><meta name="robots" content="noindex,nofollow">
</head><body><div class="main-wrapper" role="main"><div class="main-content">
<noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript>
</div></div><script>(function(){window._cf_chl_opt={cvId: '3',cZone: "news.example",cType: 'managed',cRay: '8a1b2c3d4e5f6a7b'};
var cpo=document.createElement('script');cpo.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a1b2c3d4e5f6a7b';
window._cf_chl_opt.cOgUHash=location.hash;}());</script>${SOLVE}</body></html>`,
  },
  {
    name: "datadome",
    status: 403,
    reason: "challenge",
    html: `<html><head><title>news.example</title><style>#cmsg{animation: A 1.5s;}</style></head>
<body style="margin:0"><p id="cmsg">Please enable JS and disable any ad blocker</p>
<script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMAoSx0','hsh':'2211F522B61E269B869FA6EAFFB5E1','t':'fe','s':45163,'host':'geo.captcha-delivery.com'}</script>
<script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script>${SOLVE}</body></html>`,
  },
  {
    name: "perimeterx",
    status: 403,
    reason: "challenge",
    html:
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Access to this page has been denied</title></head>
<body><div class="px-container"><div class="page-title-wrapper"><h1>Before we continue...</h1></div>
<p>Press &amp; Hold to confirm you are a human (and not a bot).</p><div id="px-captcha"></div></div>
<script>window._pxAppId = 'PXu6b0qd2S'; window._pxJsClientSrc = '/u6b0qd2S/init.js';</script>${SOLVE}</body></html>`,
  },
  {
    name: "imperva",
    status: 200,
    reason: "challenge",
    html: `<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW">
<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3"></script></head>
<body style="margin:0px;height:100%"><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=24&xinfo=0-1-0"
frameborder=0 width="100%" height="100%">Request unsuccessful. Incapsula incident ID: 0-123</iframe>${SOLVE}</body></html>`,
  },
  {
    name: "akamai",
    status: 428,
    reason: "challenge",
    html: `<!DOCTYPE html><html><head><title></title></head><body>
<div id="sec-if-cpt-container" class="sec-if-cpt-container"><div class="sec-container">
<h1 id="sec-text-if">Powered and protected by Akamai</h1></div></div>
<script src="/_sec/cp_challenge/ak-challenge-4-3.js"></script>${SOLVE}</body></html>`,
  },
  {
    name: "sucuri",
    status: 200,
    reason: "challenge",
    html: `<html><title>You are being redirected...</title>
<noscript>Javascript is required. Please enable javascript before you are allowed to see this page.</noscript>
<script>var s={},u,c,U,r,i,l=0,a,e=eval,w=String.fromCharCode,sucuri_cloudproxy_js='',S='cz0nNCcgKyAnYic=';</script>${SOLVE}</html>`,
  },
  {
    name: "aws-waf",
    status: 202,
    reason: "challenge",
    html: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title>
<script type="text/javascript">window.awsWafCookieDomainList = [];window.gokuProps = {"key":"AQIDAHjcYu","iv":"D5"};</script>
<script src="https://a1b2c3.edge.sdk.awswaf.com/a1b2c3/d4e5f6/challenge.js"></script></head><body>
<div id="challenge-container"></div><script>AwsWafIntegration.checkForceRefresh();</script>${SOLVE}</body></html>`,
  },
  {
    name: "ddos-guard",
    status: 403,
    reason: "challenge",
    html: `<!doctype html><html><head><title>DDoS-Guard</title></head><body>
<div id="ddg-l10n-title">Checking your browser before accessing news.example</div>
<script src="/.well-known/ddos-guard/check?context=free_splash"></script>${SOLVE}</body></html>`,
  },
  {
    name: "vercel",
    status: 429,
    reason: "challenge",
    html: `<!DOCTYPE html><html lang="en"><head><title>Vercel Security Checkpoint</title></head>
<body><div class="container"><p>We're verifying your browser</p></div>
<script src="/.well-known/vercel/security/static/challenge.v2.min.js"></script>${SOLVE}</body></html>`,
  },
  {
    name: "meta-refresh",
    status: 200,
    reason: "refresh",
    html: `<html><head><meta http-equiv="refresh" content="0; url=/real">
<script>document.cookie = "verified=1; path=/";</script></head><body></body></html>`,
  },
  {
    name: "noscript",
    status: 200,
    reason: "noscript",
    html: `<!doctype html><html><head><title>Loading</title></head><body>
<noscript><p>This site requires JavaScript. Please enable JavaScript in your browser and reload.</p></noscript>
<script>location.replace("/real");</script></body></html>`,
  },
];

export const SHELLS: Imitation[] = [
  {
    name: "create-react-app",
    status: 200,
    reason: "shell",
    html:
      `<!doctype html><html lang="en"><head><meta charset="utf-8"/><link rel="icon" href="/favicon.ico"/>
<meta name="viewport" content="width=device-width,initial-scale=1"/><meta name="theme-color" content="#000000"/>
<meta name="description" content="Web site created using create-react-app"/><title>React App</title>
<script defer="defer" src="/static/js/main.8c1f4d2e.js"></script></head>
<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`,
  },
  {
    name: "vite",
    status: 200,
    reason: "shell",
    html: `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Vite + Vue</title>
<script type="module" crossorigin src="/assets/index-BzQ1a2c3.js"></script></head>
<body><div id="app"></div></body></html>`,
  },
  {
    name: "next-csr",
    status: 200,
    reason: "shell",
    html: `<!DOCTYPE html><html><head><meta charSet="utf-8"/><title></title>
<script src="/_next/static/chunks/main-app.js" async=""></script></head>
<body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{}},"page":"/"}</script></body></html>`,
  },
  {
    name: "angular",
    status: 200,
    reason: "shell",
    html:
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Store</title><base href="/">
</head><body><app-root></app-root><script src="/main.js" type="module"></script></body></html>`,
  },
  {
    name: "sveltekit",
    status: 200,
    reason: "shell",
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Home</title></head>
<body data-sveltekit-preload-data="hover"><div id="svelte" style="display: contents">
<script>{ Promise.all([import("/_app/immutable/entry/start.js"), import("/_app/immutable/entry/app.js")]); }</script>
</div></body></html>`,
  },
  {
    name: "nuxt-spa",
    status: 200,
    reason: "shell",
    html: `<!DOCTYPE html><html><head><meta charset="utf-8"><title></title>
<link rel="modulepreload" as="script" crossorigin href="/_nuxt/entry.js"></head>
<body><div id="__nuxt"></div><script type="module" src="/_nuxt/entry.js" crossorigin></script></body></html>`,
  },
  {
    // The whole app inlined (a single-file build): no external script, a spinner, an empty root.
    name: "inline-app",
    status: 200,
    reason: "shell",
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading…</title>
<style>.spinner{width:32px;height:32px;border:4px solid #ccc;border-top-color:#333;border-radius:50%}</style>
</head><body><div class="spinner" role="progressbar" aria-label="Loading"></div><div id="root"></div>
<script>(function boot() {
  setTimeout(function () {
    document.querySelector(".spinner").remove();
    ${MOUNT_SCRIPT}
  }, 50);
})();</script></body></html>`,
  },
];

/** Ordinary pages: never rendered, whatever scripts, mount points or words they carry. */
export const ORDINARY: { name: string; status: number; html: string }[] = [
  {
    name: "server-rendered article with analytics",
    status: 200,
    html: `<!doctype html><html><head><title>Article</title>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script></head><body>
<div id="root"><article><h1>Article</h1><p>${
      "A paragraph of server-rendered text. ".repeat(12)
    }</p></article></div>
<noscript><img height="1" width="1" src="https://www.facebook.com/tr?id=1&ev=PageView&noscript=1"/></noscript>
<script src="/static/js/main.js"></script></body></html>`,
  },
  {
    name: "post about browser checks",
    status: 200,
    html: `<html><head><title>How bot walls work</title></head><body><article><p>${
      "Sites show a page that says checking your browser, or Just a moment... ".repeat(20)
    }</p></article></body></html>`,
  },
  {
    name: "a 404 page with text",
    status: 404,
    html: `<html><head><title>Not found</title></head><body><h1>Not found</h1>
<p>${
      "The page you were looking for does not exist. ".repeat(6)
    }</p><script src="/a.js"></script></body></html>`,
  },
  {
    // Cloudflare's bot detection injects its challenge-platform script into ordinary pages.
    name: "an article on a site with bot detection",
    status: 200,
    html: `<!doctype html><html><head><title>Article</title></head><body><article>
<h1>Article</h1><p>${"A paragraph of server-rendered text. ".repeat(40)}</p></article>
<script>(function(){var a=document.createElement('script');
a.src='/cdn-cgi/challenge-platform/scripts/jsd/main.js';document.head.appendChild(a);})();</script>
</body></html>`,
  },
  {
    name: "a tiny page without scripts",
    status: 200,
    html: `<html><head><title>Hello</title></head><body><h1>Hello</h1></body></html>`,
  },
  {
    name: "a shell whose tags describe it fully",
    status: 200,
    html: `<!doctype html><html><head><title>Product</title>
<meta property="og:title" content="Product"><meta property="og:description" content="A product.">
<meta property="og:image" content="https://cdn.example/p.jpg"></head>
<body><div id="root"></div><script src="/static/js/main.js"></script></body></html>`,
  },
];
