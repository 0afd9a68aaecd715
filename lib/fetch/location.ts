/**
 * A Location header as text. Node hands header bytes over as Latin-1; servers that send raw
 * UTF-8 there mean UTF-8 (browsers read it so), so such values are re-decoded.
 */
export function locationText(raw: string): string {
  const codes = Array.from(raw, (c) => c.charCodeAt(0));
  if (!codes.some((c) => c > 0x7f) || codes.some((c) => c > 0xff)) return raw;
  const bytes = Uint8Array.from(codes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return raw;
  }
}
