/**
 * Device presets for `device=`, as Microlink resolves them (@browserless/devices): puppeteer's
 * known devices (iPhone X, iPad, Pixel 5, Galaxy S9+, Kindle Fire HDX ... and their landscape
 * forms) and Microlink's desktops (Macbook Pro 13/15/16, iMac 21 to 27 5K), plus the few names
 * linkpeek offered before (Galaxy S9, Pixel 7, Desktop). Names match ignoring case, spaces,
 * dashes and underscores; never by guess, so a typo is an error rather than another device.
 */
import { KnownDevices } from "puppeteer-core";
import desktops from "@browserless/devices/src/devices.json" with { type: "json" };
import { ApiError } from "../util/errors.ts";

export interface Device {
  name: string;
  userAgent: string | null;
  viewport: {
    width: number;
    height: number;
    deviceScaleFactor: number;
    isMobile: boolean;
    hasTouch: boolean;
    isLandscape: boolean;
  };
}

const ANDROID_UA = (model: string) =>
  `Mozilla/5.0 (Linux; Android 14; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36`;

function ownDevice(name: string, size: [number, number, number], userAgent: string | null) {
  const [width, height, deviceScaleFactor] = size;
  const mobile = userAgent !== null;
  return {
    name,
    userAgent,
    viewport: {
      width,
      height,
      deviceScaleFactor,
      isMobile: mobile,
      hasTouch: mobile,
      isLandscape: false,
    },
  };
}

/** linkpeek's names from before Microlink's list, kept so that old queries keep working. */
const OWN: readonly Device[] = [
  ownDevice("Galaxy S9", [360, 740, 4], ANDROID_UA("SM-G960F")),
  ownDevice("Pixel 7", [412, 915, 2.625], ANDROID_UA("Pixel 7")),
  ownDevice("Desktop", [1920, 1080, 1], null),
];

export const DEVICES: readonly Device[] = [
  ...Object.values(desktops as Record<string, Device>),
  ...Object.values(KnownDevices).map((d) => ({ ...d, viewport: { ...d.viewport } }) as Device),
  ...OWN,
];

const key = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");
const BY_KEY = new Map(DEVICES.map((d) => [key(d.name), d]));

/** The preset named `name`; EINVALQUERY naming the value when there is none. */
export function findDevice(name: string): Device {
  const found = BY_KEY.get(key(name));
  if (!found) {
    throw new ApiError(
      "EINVALQUERY",
      `The \`device\` parameter "${name.slice(0, 100)}" is not a known device (e.g. iPhone 15, ` +
        "iPad, Pixel 5, Macbook Pro 13, iMac 27; the README lists where the names come from).",
    );
  }
  return found;
}
