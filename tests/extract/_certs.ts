/**
 * A throwaway CA and one server certificate for several host names (platform hosts mapped onto
 * a loopback TLS server), made with openssl for this run.
 */

export interface Certs {
  ca: string;
  cert: string;
  key: string;
}

export async function certsFor(names: string[]): Promise<Certs> {
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-certs-" });
  const openssl = async (...args: string[]) => {
    const out = await new Deno.Command("openssl", { args, cwd: dir, stderr: "piped" }).output();
    if (!out.success) {
      throw new Error(`openssl ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
    }
  };
  try {
    await openssl(
      ..."req -x509 -newkey rsa:2048 -nodes -days 1 -keyout ca.key -out ca.pem".split(" "),
      ..."-subj /CN=linkpeek-platform-test-CA -addext basicConstraints=critical,CA:TRUE".split(" "),
      ..."-addext keyUsage=critical,keyCertSign".split(" "),
    );
    await Deno.writeTextFile(
      `${dir}/san.cnf`,
      `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}\n` +
        "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    );
    await openssl(
      ..."req -newkey rsa:2048 -nodes -keyout server.key -out server.csr".split(" "),
      "-subj",
      `/CN=${names[0]}`,
    );
    await openssl(
      ..."x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial".split(" "),
      ..."-days 1 -out server.pem -extfile san.cnf".split(" "),
    );
    const read = (file: string) => Deno.readTextFile(`${dir}/${file}`);
    return {
      ca: await read("ca.pem"),
      cert: await read("server.pem"),
      key: await read("server.key"),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
