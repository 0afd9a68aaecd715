/**
 * TLS goes to the pinned address but is verified against the URL's host name. Certificates
 * come from a throwaway CA made with openssl for this run.
 */
import assert from "node:assert/strict";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import type { ApiError } from "../../lib/util/errors.ts";
import { loopbackConnector, PUBLIC_IP, serve, tableResolver, testConfig } from "../_fixtures.ts";

async function openssl(dir: string, args: string[]): Promise<void> {
  let output;
  try {
    output = await new Deno.Command("openssl", { args, cwd: dir, stderr: "piped" }).output();
  } catch (error) {
    throw new Error(
      `openssl is needed to make test certificates (apt-get install openssl): ${error}`,
    );
  }
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
}

/** A CA and a server certificate for site.test and PUBLIC_IP signed by it. */
async function makeCerts(): Promise<{ ca: string; cert: string; key: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const run = (args: string) => openssl(dir, args.split(" "));
    await run(
      "req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=test-CA " +
        "-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign",
    );
    await run(
      "req -newkey rsa:2048 -nodes -keyout site.key -out site.csr -subj /CN=site.test",
    );
    await Deno.writeTextFile(
      `${dir}/ext.cnf`,
      `subjectAltName=DNS:site.test,IP:${PUBLIC_IP}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
    );
    await run(
      "x509 -req -in site.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out site.pem -days 1 " +
        "-extfile ext.cnf",
    );
    return {
      ca: await Deno.readTextFile(`${dir}/ca.pem`),
      cert: await Deno.readTextFile(`${dir}/site.pem`),
      key: await Deno.readTextFile(`${dir}/site.key`),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("fetch() verifies TLS against the URL's host name, not the dialled address", async (t) => {
  const { ca, cert, key } = await makeCerts();
  await using server = serve(
    (req) => new Response(`tls ok ${new URL(req.url).host}`),
    { cert, key },
  );
  const resolver = tableResolver({ "site.test": [PUBLIC_IP], "other.test": [PUBLIC_IP] });
  const connector = loopbackConnector({ [PUBLIC_IP]: server.port });
  const config = testConfig();
  const network = { resolver, connector };

  await t.step("the right name with the trusted CA passes", async () => {
    const result = await new GuardedFetcher({ config, network, ca: [ca] }).fetch(
      "https://site.test/",
    );
    assert.equal(new TextDecoder().decode(result.body), "tls ok site.test");
    assert.deepEqual(connector.dialled, [`${PUBLIC_IP}:443`]);
  });
  await t.step("another name on the same address is a TLS error", async () => {
    await assert.rejects(
      new GuardedFetcher({ config, network, ca: [ca] }).fetch("https://other.test/"),
      (e: ApiError) => e.code === "EFETCH" && /TLS/.test(e.message),
    );
  });
  await t.step("an unknown CA is a TLS error", async () => {
    await assert.rejects(
      new GuardedFetcher({ config, network }).fetch("https://site.test/"),
      (e: ApiError) => e.code === "EFETCH" && /TLS/.test(e.message),
    );
  });
  await t.step("an IP-literal URL is checked against that IP, not the dialled one", async () => {
    const result = await new GuardedFetcher({ config, network, ca: [ca] }).fetch(
      `https://${PUBLIC_IP}/`,
    );
    assert.equal(new TextDecoder().decode(result.body), `tls ok ${PUBLIC_IP}`);
  });
  assert.equal(server.hits, 2);
});
