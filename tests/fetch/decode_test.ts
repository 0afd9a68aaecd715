import assert from "node:assert/strict";
import { charsetFromMeta, decodeHtml } from "../../lib/fetch/decode.ts";

// Known encodings of the texts, byte for byte.
const SJIS_NIHONGO = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]; // 日本語
const CP1251_PRIVET = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]; // Привет
const GBK_ZHONGWEN = [0xd6, 0xd0, 0xce, 0xc4]; // 中文

function page(before: string, text: number[], after = "</title>"): Uint8Array {
  const enc = new TextEncoder();
  return new Uint8Array([...enc.encode(before), ...text, ...enc.encode(after)]);
}

Deno.test("decodeHtml() honours the HTTP charset", async (t) => {
  await t.step("Shift_JIS", () => {
    const body = page("<title>", SJIS_NIHONGO);
    assert.equal(decodeHtml(body, "text/html; charset=Shift_JIS"), "<title>日本語</title>");
  });
  await t.step("windows-1251 quoted", () => {
    const body = page("<title>", CP1251_PRIVET);
    assert.equal(decodeHtml(body, 'text/html;charset="windows-1251"'), "<title>Привет</title>");
  });
  await t.step("gb2312 label maps to GBK", () => {
    const body = page("<title>", GBK_ZHONGWEN);
    assert.equal(decodeHtml(body, "text/html; charset=gb2312"), "<title>中文</title>");
  });
  await t.step("header wins over meta", () => {
    const body = page('<meta charset="utf-8"><title>', CP1251_PRIVET);
    assert.match(decodeHtml(body, "text/html; charset=windows-1251"), /Привет/);
  });
  await t.step("unknown header label falls through to meta", () => {
    const body = page('<meta charset="shift_jis"><title>', SJIS_NIHONGO);
    assert.match(decodeHtml(body, "text/html; charset=bogus-42"), /日本語/);
  });
});

Deno.test("decodeHtml() reads <meta> in the first 1024 bytes", async (t) => {
  await t.step("meta charset", () => {
    const body = page('<html><head><meta charset="gbk"><title>', GBK_ZHONGWEN);
    assert.match(decodeHtml(body, "text/html"), /<title>中文<\/title>/);
  });
  await t.step("meta http-equiv content-type", () => {
    const body = page(
      "<head><META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=windows-1251'><title>",
      CP1251_PRIVET,
    );
    assert.match(decodeHtml(body, null), /Привет/);
  });
  await t.step("content without http-equiv does not count", () => {
    assert.equal(charsetFromMeta(page('<meta name="x" content="charset=gbk">', [])), null);
  });
  await t.step("meta inside a comment does not count", () => {
    assert.equal(charsetFromMeta(page('<!-- <meta charset="gbk"> -->', [])), null);
  });
  await t.step("meta after 1024 bytes is not seen by the prescan", () => {
    const body = page(`${" ".repeat(1100)}<meta charset="shift_jis"><title>`, SJIS_NIHONGO);
    assert.equal(charsetFromMeta(body), null);
  });
  await t.step("bytes not UTF-8 read in a charset the <head> declares after scripts", () => {
    const script = `<script>var a = "${"x".repeat(1100)}";</script>`;
    const body = page(`<html><head>${script}<meta charset="shift_jis"><title>`, SJIS_NIHONGO);
    assert.equal(decodeHtml(body, null).endsWith("<title>日本語</title>"), true);
    const polish = page(
      `<head>${script}<meta http-equiv="Content-Type" content="text/html; charset=Windows-1250">`,
      [0x43, 0x69, 0xea, 0xbf, 0x61, 0x72], // Ciężar
      "</head>",
    );
    assert.match(decodeHtml(polish, null), /Ciężar/);
  });
  await t.step("a <meta> in the body, past the <head>, is not read", () => {
    const body = page(
      `<head>${" ".repeat(1100)}</head><body><meta charset="shift_jis"><p>`,
      SJIS_NIHONGO,
    );
    // Not valid UTF-8, so windows-1252: each byte becomes one Latin character.
    assert.equal(decodeHtml(body, null).endsWith("<p>“ú–{Œê</title>"), true);
  });
  await t.step("valid UTF-8 beats a late <meta>", () => {
    const utf8 = [...new TextEncoder().encode("日本語")];
    const body = page(`<head>${" ".repeat(1100)}<meta charset="shift_jis"><title>`, utf8);
    assert.equal(decodeHtml(body, null).endsWith("<title>日本語</title>"), true);
  });
  await t.step("a page re-saved as UTF-8 under an old single-byte <meta> reads as UTF-8", () => {
    const body = page('<meta charset="windows-1251"><title>', [
      ...new TextEncoder().encode("Привет"),
    ]);
    assert.match(decodeHtml(body, null), /<title>Привет<\/title>/);
    // The HTTP header still wins over the bytes.
    assert.doesNotMatch(decodeHtml(body, "text/html; charset=windows-1251"), /Привет/);
  });
  await t.step("utf-16 in meta means utf-8", () => {
    const body = page('<meta charset="utf-16"><title>', [...new TextEncoder().encode("é")]);
    assert.match(decodeHtml(body, null), /<title>é<\/title>/);
  });
});

Deno.test("decodeHtml() uses the BOM first", () => {
  const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("héllo")]);
  assert.equal(decodeHtml(utf8, "text/html; charset=windows-1251"), "héllo");
  const utf16le = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00]);
  assert.equal(decodeHtml(utf16le, null), "hé");
  const utf16be = new Uint8Array([0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9]);
  assert.equal(decodeHtml(utf16be, null), "hé");
});

Deno.test("decodeHtml() sniffs UTF-8, else windows-1252", async (t) => {
  await t.step("valid UTF-8", () => {
    assert.equal(decodeHtml(new TextEncoder().encode("naïve 日本"), null), "naïve 日本");
  });
  await t.step("UTF-8 cut mid-character at the cap is still UTF-8", () => {
    const bytes = new TextEncoder().encode("ok 日本");
    assert.equal(decodeHtml(bytes.subarray(0, bytes.length - 1), null), "ok 日\uFFFD");
  });
  await t.step("invalid UTF-8 is windows-1252", () => {
    assert.equal(decodeHtml(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]), null), "café €");
  });
});

Deno.test("decodeHtml() removes C0 control characters but tab, line feed and carriage return", () => {
  const bytes = new TextEncoder().encode(
    "<p>a\u0000b\u0001c\u001fd\te\nf\rg\u000bh\u000ci\u0007</p>" + "\u0000".repeat(100_000),
  );
  for (const type of ["text/html; charset=utf-8", "text/html; charset=windows-1252", null]) {
    assert.equal(decodeHtml(bytes, type), "<p>abcd\te\nf\rgh i</p>", String(type));
  }
  const utf16 = new Uint8Array([0xff, 0xfe, 0x3c, 0, 0, 0, 0x3e, 0]);
  assert.equal(decodeHtml(utf16, null), "<>");
});

Deno.test("decodeHtml() finds a control character at any byte offset and alignment", () => {
  // The scan reads aligned four-byte words: each offset in a word, before, within and after
  // the aligned part, and views that start off a word boundary.
  const text = "<p>" + "one two\tthree\r\n".repeat(3) + "</p>";
  const clean = new TextEncoder().encode(text);
  for (const control of [0x00, 0x01, 0x08, 0x0b, 0x0c, 0x1b, 0x1f]) {
    for (let at = 0; at <= clean.length; at++) {
      const bytes = new Uint8Array([...clean.subarray(0, at), control, ...clean.subarray(at)]);
      // A form feed reads as a space; the others are dropped.
      const expected = control === 0x0c ? `${text.slice(0, at)} ${text.slice(at)}` : text;
      for (let shift = 0; shift < 4; shift++) {
        const backing = new Uint8Array(bytes.length + shift);
        backing.set(bytes, shift);
        const decoded = decodeHtml(backing.subarray(shift), "text/html; charset=utf-8");
        assert.equal(decoded, expected, `${control} at ${at}, shift ${shift}`);
      }
    }
  }
  // Tab, line feed and carriage return stay, wherever they are.
  for (let shift = 0; shift < 4; shift++) {
    assert.equal(decodeHtml(clean.subarray(shift), null), text.slice(shift));
  }
});
