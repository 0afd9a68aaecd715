/** A loopback site serving the real documents of tests/fixtures/documents/ with their types. */
import { serve } from "../_fixtures.ts";

export const FIXTURES = new URL("../fixtures/documents/", import.meta.url);

const TYPES: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  rtf: "application/rtf",
  epub: "application/epub+zip",
};

/** Serves the fixtures with their real types, and `overrides` by path. */
export function documentSite(overrides: Record<string, () => Response> = {}) {
  return serve((request) => {
    const path = new URL(request.url).pathname;
    if (overrides[path]) return overrides[path]();
    const name = path.slice(1);
    const ext = name.split(".").pop() ?? "";
    if (!TYPES[ext] || name.includes("/")) return new Response("not found", { status: 404 });
    return new Response(Deno.readFileSync(new URL(name, FIXTURES)), {
      headers: { "content-type": TYPES[ext]! },
    });
  });
}
