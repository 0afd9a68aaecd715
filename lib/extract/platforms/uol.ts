/**
 * UOL (uol.com.br and its Folha, Torcedores sites): JSON-LD first, since their og: values are
 * often cut at a quote the page does not escape.
 */
import { ld } from "../fields/rules.ts";
import { hostIs } from "./helpers.ts";
import type { Platform } from "./platform.ts";

export const uol: Platform = {
  name: "uol",
  test: (url) => hostIs(url, "uol.com.br", "torcedores.com"),
  rules: {
    title: [ld("headline"), ld("name"), ({ rec }) => rec.title],
    description: [ld("description")],
  },
};
