/** `filter=title,image.url`: keep only those dot paths of data. */
export function filterData(
  data: Record<string, unknown>,
  paths: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split(".");
    let source: unknown = data;
    let target: Record<string, unknown> = out;
    keys.forEach((key, i) => {
      if (source === null || typeof source !== "object" || !(key in source)) {
        source = undefined;
        return;
      }
      source = (source as Record<string, unknown>)[key];
      if (i === keys.length - 1) {
        target[key] = source;
      } else if (source !== null && typeof source === "object") {
        target = (target[key] ??= {}) as Record<string, unknown>;
      } else {
        // A path through a scalar keeps the scalar itself (e.g. `image.url` with image null).
        target[key] = source;
        source = undefined;
      }
    });
  }
  return out;
}
