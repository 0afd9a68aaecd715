/**
 * `deno task bench:micro`: the guard's checks, run on every hop and every address a name
 * resolves to (lib/guard/policy.ts): they must stay far below a DNS answer's cost.
 */
import { addressRefusal, hostnameRefusal } from "../lib/guard/policy.ts";
import { isTrusted, parseTrustedTargets } from "../lib/guard/trusted.ts";

Deno.bench("addressRefusal(public IPv4)", { group: "guard" }, () => {
  addressRefusal("93.184.216.34");
});
Deno.bench("addressRefusal(private IPv4)", { group: "guard" }, () => {
  addressRefusal("10.1.2.3");
});
Deno.bench("addressRefusal(public IPv6)", { group: "guard" }, () => {
  addressRefusal("2606:2800:220:1:248:1893:25c8:1946");
});
Deno.bench("addressRefusal(IPv4-mapped IPv6)", { group: "guard" }, () => {
  addressRefusal("::ffff:127.0.0.1");
});
Deno.bench("hostnameRefusal(name)", { group: "guard" }, () => {
  hostnameRefusal("www.example.com");
});
const trusted = parseTrustedTargets("127.0.0.1:8080,10.0.0.0/8:*,[::1]:443");
Deno.bench("isTrusted(3 entries, none matching)", { group: "guard" }, () => {
  isTrusted("93.184.216.34", 443, trusted);
});
