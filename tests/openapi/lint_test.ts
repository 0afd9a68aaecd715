/**
 * /openapi.json against the two linters users run on it: `@redocly/cli lint` (its recommended
 * rules) and `@stoplight/spectral-cli` with the `spectral:oas` ruleset. A deliberately broken
 * copy is linted in the same run, so a linter that stopped reporting would fail here too.
 */
import assert from "node:assert/strict";
import { describeRun, runTool } from "../tools/mod.ts";
import { type Json, liveDocument, tempFolder } from "./_document.ts";

/** The live document with the faults issue #10 named put back in. */
function broken(doc: Json): Json {
  const copy = structuredClone(doc) as Json & { paths: Record<string, Record<string, Json>> };
  const parameters = copy.paths["/"]!.get!.parameters as Json[];
  const flag = parameters.find((p) => (p.schema as Json).type === "boolean" && "example" in p)!;
  flag.example = "true"; // a boolean example typed as a string
  delete copy.paths["/health"]!.get!.security; // no security declared
  delete copy.paths["/health"]!.get!.operationId;
  const schemas = (copy.components as { schemas: Record<string, Json> }).schemas;
  schemas.Tags = { type: "array" }; // an array without items
  return copy;
}

interface Problem {
  rule: string;
  severity: "error" | "warning";
  file: string;
  where: string;
}

function redoclyProblems(stdout: string): Problem[] {
  const report = JSON.parse(stdout) as {
    problems: {
      ruleId: string;
      severity: string;
      location: { source: { ref: string }; pointer: string }[];
    }[];
  };
  return report.problems.map((p) => ({
    rule: p.ruleId,
    severity: p.severity === "error" ? "error" : "warning",
    file: p.location[0]!.source.ref.split("/").pop()!,
    where: p.location[0]!.pointer,
  }));
}

function spectralProblems(stdout: string): Problem[] {
  const report = JSON.parse(stdout) as {
    code: string;
    severity: number;
    source: string;
    path: string[];
  }[];
  return report.map((p) => ({
    rule: p.code,
    severity: p.severity === 0 ? "error" : "warning",
    file: p.source.split("/").pop()!,
    where: p.path.join("."),
  }));
}

const of = (problems: Problem[], file: string) => problems.filter((p) => p.file === file);
const rules = (problems: Problem[], severity: Problem["severity"]) =>
  new Set(problems.filter((p) => p.severity === severity).map((p) => p.rule));

Deno.test("/openapi.json passes `@redocly/cli lint` with no errors", async () => {
  const doc = await liveDocument();
  await using dir = await tempFolder({ "openapi.json": doc, "broken.json": broken(doc) });
  // One file a run: with several, the JSON reports are printed one after the other.
  const lint = async (file: string) => {
    const result = await runTool("redocly", ["lint", "--format=json", file], dir.path);
    try {
      return { result, problems: redoclyProblems(result.stdout) };
    } catch {
      throw new Error(describeRun("@redocly/cli lint", result));
    }
  };
  const { result, problems: live } = await lint("openapi.json");
  assert.deepEqual(live.filter((p) => p.severity === "error"), [], describeRun("redocly", result));
  assert.equal(result.code, 0, describeRun("redocly", result));
  // The only warnings: routes that have no 4xx answer at all; inventing one would be false.
  assert.deepEqual(
    live.map((p) => `${p.rule} ${p.where}`).sort(),
    [
      "operation-4xx-response #/paths/~1/options/responses",
      "operation-4xx-response #/paths/~1errors/get/responses",
      "operation-4xx-response #/paths/~1health/get/responses",
      "operation-4xx-response #/paths/~1openapi.json/get/responses",
    ],
  );
  const { problems: faults } = await lint("broken.json");
  assert.ok(rules(faults, "error").has("security-defined"), JSON.stringify(faults));
  assert.ok(rules(faults, "warning").has("operation-operationId"), JSON.stringify(faults));
  assert.ok(rules(faults, "warning").has("no-invalid-parameter-examples"), JSON.stringify(faults));
});

Deno.test("/openapi.json passes `@stoplight/spectral-cli` (spectral:oas) with no problems", async () => {
  const doc = await liveDocument();
  await using dir = await tempFolder({
    "openapi.json": doc,
    "broken.json": broken(doc),
    "ruleset.json": { extends: ["spectral:oas"] },
  });
  const result = await runTool(
    "spectral",
    ["lint", "--ruleset", "ruleset.json", "--format", "json", "openapi.json", "broken.json"],
    dir.path,
  );
  let problems: Problem[];
  try {
    problems = spectralProblems(result.stdout);
  } catch {
    throw new Error(describeRun("@stoplight/spectral-cli lint", result));
  }
  assert.deepEqual(of(problems, "openapi.json"), [], describeRun("spectral", result));
  const faults = of(problems, "broken.json");
  for (const rule of ["oas3-valid-media-example", "array-items"]) {
    assert.ok(rules(faults, "error").has(rule), `${rule} not reported: ${JSON.stringify(faults)}`);
  }
  assert.ok(rules(faults, "warning").has("operation-operationId"), JSON.stringify(faults));
});
