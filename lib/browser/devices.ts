/** Device presets for `device=`; names match ignoring case, spaces, dashes and underscores. */
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

const IOS_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const IPAD_UA =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const ANDROID_UA = (model: string) =>
  `Mozilla/5.0 (Linux; Android 14; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36`;

function device(
  name: string,
  size: [number, number, number],
  mobile: boolean,
  userAgent: string | null,
): Device {
  const [width, height, deviceScaleFactor] = size;
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

export const DEVICES: readonly Device[] = [
  device("iPhone 15", [393, 852, 3], true, IOS_UA),
  device("iPhone 15 Pro Max", [430, 932, 3], true, IOS_UA),
  device("iPhone SE", [375, 667, 2], true, IOS_UA),
  device("iPad", [810, 1080, 2], true, IPAD_UA),
  device("iPad Pro", [1024, 1366, 2], true, IPAD_UA),
  device("Galaxy S9", [360, 740, 4], true, ANDROID_UA("SM-G960F")),
  device("Pixel 7", [412, 915, 2.625], true, ANDROID_UA("Pixel 7")),
  device("Macbook Pro 13", [1280, 800, 2], false, null),
  device("Macbook Pro 16", [1536, 960, 2], false, null),
  device("Desktop", [1920, 1080, 1], false, null),
];

const key = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");

/** The preset named `name`; EINVALQUERY naming the value when there is none. */
export function findDevice(name: string): Device {
  const found = DEVICES.find((d) => key(d.name) === key(name));
  if (!found) {
    throw new ApiError(
      "EINVALQUERY",
      `The \`device\` parameter "${name}" is not a known device (one of: ${
        DEVICES.map((d) => d.name).join(", ")
      }).`,
    );
  }
  return found;
}
