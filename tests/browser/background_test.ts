import assert from "node:assert/strict";
import { parseBackground } from "../../lib/browser/background.ts";
import { ApiError } from "../../lib/util/errors.ts";

Deno.test("parseBackground() accepts colours, gradients and http(s) image URLs", () => {
  for (
    const value of [
      "#fff",
      "#00ff0080",
      "rebeccapurple",
      "rgb(10, 20, 30)",
      "rgba(10 20 30 / 50%)",
      "hsl(120deg 50% 50%)",
      "linear-gradient(225deg, #FF057C 0%, #8D0B93 50%, #321575 100%)",
      "radial-gradient(circle at center, red, rgba(0,0,255,0.5) 70%)",
      "repeating-linear-gradient(to right, white 0 10px, black 10px 20px)",
    ]
  ) {
    assert.equal(parseBackground(value), value);
  }
  assert.equal(
    parseBackground("https://example.invalid/bg.jpg?a=1"),
    'url("https://example.invalid/bg.jpg?a=1") center / cover no-repeat',
  );
  assert.equal(
    parseBackground("https://example.invalid/a'b(c).png"),
    'url("https://example.invalid/a%27b%28c%29.png") center / cover no-repeat',
  );
});

Deno.test("parseBackground() rejects anything else as EINVALOVERLAYBG naming it", () => {
  for (
    const value of [
      "",
      "notacolour",
      "#ggg",
      "red; position: fixed",
      "red}body{display:none",
      "url(https://example.invalid/x.png)",
      "linear-gradient(red, expression(alert(1)))",
      "linear-gradient(red, url(https://example.invalid/x))",
      "linear-gradient(red, blue",
      "rgb(1,2,3);x:y",
      "javascript:alert(1)",
      "file:///etc/passwd",
      "http://",
    ]
  ) {
    assert.throws(() => parseBackground(value), (error: unknown) => {
      assert.ok(error instanceof ApiError, value);
      assert.equal(error.code, "EINVALOVERLAYBG");
      assert.ok(error.message.includes("overlay.background"), error.message);
      assert.ok(error.message.includes(`"${value}"`), error.message);
      return true;
    });
  }
});
