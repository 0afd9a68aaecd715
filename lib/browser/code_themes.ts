/**
 * Themes for `screenshot.codeScheme`: highlight.js's own styles (styles/<name>.css in the pinned
 * package; the two that paint with an image file are left out), plus the names Microlink uses
 * for its default and best-known themes, mapped onto their closest highlight.js style.
 */
export const HLJS_THEMES = [
  "1c-light",
  "a11y-dark",
  "a11y-light",
  "agate",
  "an-old-hope",
  "androidstudio",
  "arduino-light",
  "arta",
  "ascetic",
  "atom-one-dark",
  "atom-one-dark-reasonable",
  "atom-one-light",
  "codepen-embed",
  "color-brewer",
  "cybertopia-cherry",
  "cybertopia-dimmer",
  "cybertopia-icecap",
  "cybertopia-saturated",
  "dark",
  "default",
  "devibeans",
  "docco",
  "equinox",
  "far",
  "felipec",
  "foundation",
  "github",
  "github-dark",
  "github-dark-dimmed",
  "gml",
  "googlecode",
  "gradient-dark",
  "gradient-light",
  "grayscale",
  "hybrid",
  "idea",
  "intellij-light",
  "ir-black",
  "isbl-editor-dark",
  "isbl-editor-light",
  "kimbie-dark",
  "kimbie-light",
  "lightfair",
  "lioshi",
  "magula",
  "mono-blue",
  "monokai",
  "monokai-sublime",
  "night-owl",
  "nnfx-dark",
  "nnfx-light",
  "nord",
  "obsidian",
  "panda-syntax-dark",
  "panda-syntax-light",
  "paraiso-dark",
  "paraiso-light",
  "purebasic",
  "qtcreator-dark",
  "qtcreator-light",
  "rainbow",
  "rose-pine",
  "rose-pine-dawn",
  "rose-pine-moon",
  "routeros",
  "school-book",
  "shades-of-purple",
  "srcery",
  "stackoverflow-dark",
  "stackoverflow-light",
  "sunburst",
  "tokyo-night-dark",
  "tokyo-night-light",
  "tomorrow-night-blue",
  "tomorrow-night-bright",
  "vs",
  "vs-dark",
  "vs2015",
  "xcode",
  "xt256",
] as const;

/** Microlink's theme names (Prism's) -> the nearest highlight.js style. */
export const THEME_ALIASES: Record<string, typeof HLJS_THEMES[number]> = {
  "atom-dark": "atom-one-dark",
  "dracula": "tokyo-night-dark",
  "ghcolors": "github",
  "one-light": "atom-one-light",
  "vsc-dark-plus": "vs2015",
};

export const CODE_THEMES: readonly string[] = [...HLJS_THEMES, ...Object.keys(THEME_ALIASES)];

/** Microlink's default look. */
export const DEFAULT_CODE_THEME = "atom-one-dark";

/** The highlight.js style a theme name stands for. */
export function hljsTheme(name: string | undefined): string {
  if (name === undefined) return DEFAULT_CODE_THEME;
  return Object.hasOwn(THEME_ALIASES, name) ? THEME_ALIASES[name]! : name;
}
