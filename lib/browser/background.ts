/**
 * `overlay.background`: a CSS colour, a gradient, or an http(s) image URL. Validated strictly
 * (a whitelist of tokens, never free CSS) because it is written into the overlay page's style.
 */
import { ApiError } from "../util/errors.ts";

const NAMED_COLORS = new Set(
  ("aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue " +
    "blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk " +
    "crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki " +
    "darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen " +
    "darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue " +
    "dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite " +
    "gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki " +
    "lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan " +
    "lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen " +
    "lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen " +
    "magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen " +
    "mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream " +
    "mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid " +
    "palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum " +
    "powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown " +
    "seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen " +
    "steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow " +
    "yellowgreen transparent").split(" "),
);

const GRADIENT_WORDS = new Set(
  ("to left right top bottom center at circle ellipse from in closest-side closest-corner " +
    "farthest-side farthest-corner srgb oklab oklch hsl").split(" "),
);

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const COLOR_FN = /^(?:rgba?|hsla?)\(\s*[0-9.%\s,/deg+-]+\)$/i;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:deg|grad|rad|turn|px|em|rem|%|vw|vh)?$/i;
const GRADIENT = /^(?:repeating-)?(?:linear|radial|conic)-gradient\((.*)\)$/is;

function isColor(value: string): boolean {
  return HEX.test(value) || COLOR_FN.test(value) || NAMED_COLORS.has(value.toLowerCase());
}

function isGradient(value: string): boolean {
  const match = GRADIENT.exec(value);
  if (!match || /[^a-z0-9#%.,()\s/+-]/i.test(match[1]!)) return false;
  // Every token is a colour function, a number, a hex colour, a colour name or a keyword.
  const body = match[1]!.replace(/(?:rgba?|hsla?)\([^()]*\)/gi, (fn) => isColor(fn) ? " " : "!");
  if (/[!()]/.test(body)) return false;
  const tokens = body.split(/[\s,/]+/).filter(Boolean);
  return tokens.length > 0 &&
    tokens.every((t) =>
      NUMBER.test(t) || HEX.test(t) || NAMED_COLORS.has(t.toLowerCase()) ||
      GRADIENT_WORDS.has(t.toLowerCase())
    );
}

/**
 * Returns the CSS `background` value for a valid `overlay.background`, else throws
 * EINVALOVERLAYBG (Microlink's code) naming the parameter and the value.
 */
export function parseBackground(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length > 0 && trimmed.length <= 2048) {
    if (isColor(trimmed) || isGradient(trimmed)) return trimmed;
    const url = /^https?:\/\//i.test(trimmed) ? URL.parse(trimmed) : null;
    if (url) {
      // The serialiser percent-encodes quotes in most parts; encode the rest defensively.
      const href = url.href.replace(
        /["\\()'\s]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
      );
      return `url("${href}") center / cover no-repeat`;
    }
  }
  throw new ApiError(
    "EINVALOVERLAYBG",
    `The \`overlay.background\` parameter "${value}" is not a CSS colour, gradient or ` +
      "http(s) image URL.",
  );
}
