/** `device=`: every name Microlink documents, matched as Microlink matches them. */
import assert from "node:assert/strict";
import { findDevice } from "../../lib/browser/devices.ts";
import { ApiError } from "../../lib/util/errors.ts";

/** The 38 names of Microlink's device page (its docs' parameters/device), in its order. */
const MICROLINK_DEVICES = [
  "iPhone 15 Pro Max",
  "iPhone 15 Pro",
  "iPhone 14 Pro Max",
  "iPhone 13 Pro Max",
  "iPhone 15",
  "Galaxy S9+",
  "iPhone 14",
  "Pixel 5",
  "iPhone 13",
  "Galaxy S8",
  "Pixel 4a (5G)",
  "iPhone 12",
  "Galaxy S5",
  "Pixel 4",
  "Nexus 6P",
  "iPad",
  "iPad Pro",
  "iPad Pro 11",
  "iPad (gen 7)",
  "iPad (gen 6)",
  "iPad Mini",
  "Galaxy Tab S4",
  "Nexus 7",
  "Kindle Fire HDX",
  "Nexus 10",
  "iPad landscape",
  "iPad Pro landscape",
  "Galaxy Tab S4 landscape",
  "iPad Mini landscape",
  "Nexus 7 landscape",
  "Macbook Pro 13",
  "Macbook Pro 16",
  "iMac 24 4.5K",
  "Macbook Pro 15",
  "iMac 27",
  "iMac 27 5K",
  "iMac 21",
  "iMac 21 4K",
]; // deno-fmt-ignore

Deno.test("every device Microlink documents resolves, in any case", () => {
  assert.equal(MICROLINK_DEVICES.length, 38);
  for (const name of MICROLINK_DEVICES) {
    assert.equal(findDevice(name).name, name);
    assert.equal(findDevice(name.toUpperCase()).name, name);
    assert.equal(findDevice(name.toLowerCase()).name, name);
  }
});

Deno.test("Microlink's sizes: iPad 768x1024, Macbook Pro 13 1280x800 at 2x, landscape turned", () => {
  const size = (name: string) => {
    const { width, height, deviceScaleFactor, isLandscape } = findDevice(name).viewport;
    return [width, height, deviceScaleFactor, isLandscape];
  };
  assert.deepEqual(size("iPad"), [768, 1024, 2, false]);
  assert.deepEqual(size("iPad landscape"), [1024, 768, 2, true]);
  assert.deepEqual(size("Macbook Pro 13"), [1280, 800, 2, false]);
  assert.deepEqual(size("iMac 27 5K"), [2560, 1440, 2, false]);
  // puppeteer names Microlink's own examples use
  assert.deepEqual(size("iPhone X"), [375, 812, 3, false]);
  assert.match(findDevice("iphone x").userAgent!, /iPhone/);
  // linkpeek's earlier names still work
  assert.equal(findDevice("galaxy-s9").viewport.width, 360);
});

Deno.test("an unknown name is EINVALQUERY, never a near guess", () => {
  for (const name of ["Nokia 3310", "iPhone 1", "ipadd", "x".repeat(5000)]) {
    assert.throws(
      () => findDevice(name),
      (error: unknown) =>
        error instanceof ApiError && error.code === "EINVALQUERY" && error.message.length < 400,
    );
  }
});
