/** Free and pro plans: keys, signed URLs, client addresses and the daily limit. */
export { type Authorization, authorize, type AuthorizeOptions } from "./authorize.ts";
export { clientIp, rateLimitKey } from "./client_ip.ts";
export { constantTimeEqual } from "./constant_time.ts";
export { dailyWindow } from "./daily.ts";
export { createKey, findActiveKey, hashKey, isWellFormedKey, KEY_PREFIX } from "./keys.ts";
export { canonicalQuery, signatureFor, signedQuery, signQuery } from "./sign.ts";
