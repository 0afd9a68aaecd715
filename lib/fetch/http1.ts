/**
 * The HTTP/1.1 wire format both hops speak: the request head they write and the answer parser
 * (http-parser-js) they read with, so a direct hop and one through a proxy's tunnel read the
 * same answers the same way.
 */
import { Buffer } from "node:buffer";
import { HTTPParser } from "http-parser-js";
import { decodable } from "./body.ts";
import type { HopRequest } from "./types.ts";

/** One answer parser (the package names its instance type nowhere). */
type Parser = InstanceType<typeof HTTPParser>;

// Header bytes are read one char per byte, as node:http reads them (its default is 7-bit ASCII).
HTTPParser.encoding = "latin1";

/** The longest answer head read, as node:http's default. */
const MAX_HEAD = 16 * 1024;

/** Bodies that an answer to GET never has (RFC 9110: 204, 304; HEAD has none at all). */
const NO_BODY = new Set([204, 304]);

/**
 * The request head: the URL's own Host and the hop's headers. One exchange per connection
 * (`connection: close`) unless `keepAlive`: then HTTP/1.1's default, a persistent connection.
 */
export function requestHead(hop: HopRequest, keepAlive = false): Buffer {
  const { url } = hop;
  const head = [`${hop.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(hop.headers)) {
    if (name !== "host" && name !== "connection") head.push(`${name}: ${value}`);
  }
  if (!keepAlive) head.push("connection: close");
  head.push("", "");
  return Buffer.from(head.join("\r\n"), "latin1");
}

/** An answer that is not HTTP: named as toApiError names node:http's parse errors. */
export function parseError(error: Error): Error {
  const code = (error as { code?: string }).code;
  return Object.assign(new Error(`invalid HTTP response (${code ?? error.message})`), {
    code: code?.startsWith("HPE_") ? code : "HPE_INVALID",
  });
}

/** The head of an answer: its status and raw `[name, value, …]` header list. */
export interface AnswerHead {
  statusCode: number;
  headers: string[];
  /** Transfer codings to undo in the body, in the order applied (see transferFraming). */
  transferCodings: string[];
}

/** What an answer parser reports, as it reads. */
export interface AnswerEvents {
  /** The final answer's head (interim 1xx answers are skipped). */
  head(info: AnswerHead): void;
  /** The body bytes of one feed, as sent; `bytes` may be a view of them: copy it to keep it. */
  body(bytes: Buffer): void;
  /**
   * The final answer is over. `reusable`: its connection may carry another exchange (see
   * answerEndsCleanly).
   */
  complete(reusable: boolean): void;
}

/** The parser's cursor in the bytes being fed (http-parser-js keeps it on the instance). */
interface Cursor {
  offset: number;
  end: number;
}

/**
 * Whether the connection is clean after this answer, ready for another exchange: HTTP/1.1
 * without `connection: close`, an end the answer itself marks (a length or chunks, not both, or
 * no body; never the connection's close), and not one byte after it.
 */
function answerEndsCleanly(
  info: { versionMajor: number; versionMinor: number; headers: string[] },
  bodiless: boolean,
  transfer: TransferFraming | null,
  cursor: Cursor,
): boolean {
  if (info.versionMajor !== 1 || info.versionMinor !== 1) return false;
  let sized = false;
  for (let i = 0; i < info.headers.length; i += 2) {
    const name = info.headers[i]!.toLowerCase();
    const value = info.headers[i + 1]!.toLowerCase();
    if (name === "connection" && /(^|[\s,])close($|[\s,])/.test(value)) return false;
    if (name === "content-length") sized = true;
  }
  // Both framings (RFC 9112, 6.3: "ought to be handled as an error"): the server may have
  // framed its body by the one not read, and what is left would answer the next request.
  if (sized && transfer !== null) return false;
  const framed = bodiless || sized || transfer?.chunked === true;
  return framed && cursor.offset === cursor.end;
}

/** How an answer's Transfer-Encoding frames its body (RFC 9112, 6.1 and 6.3). */
interface TransferFraming {
  /** Chunked is the final coding: the last chunk ends the body. Else the connection's close. */
  chunked: boolean;
  /** The other codings, in the order applied: undone inside the chunks, as content codings. */
  codings: string[];
}

/** The parse error of a transfer coding not undone here (or chunked twice, or not last). */
export const UNSUPPORTED_TRANSFER_CODING = "HPE_UNSUPPORTED_TRANSFER_CODING";

/**
 * The framing the Transfer-Encoding of the head `headers` names, null without one; its lines
 * are one list. http-parser-js framed by chunks only a last line of exactly `chunked`:
 * `gzip, chunked` was read to the connection's close, its chunk lines and gzip taken for the page.
 * A body is refused when the body reader cannot undo its codings (`chunked` anywhere but last is
 * one of those): it could not be read. An answer without a body has nothing to undo.
 */
function transferFraming(headers: string[], bodiless: boolean): TransferFraming | null {
  let listed: string[] | null = null;
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== "transfer-encoding") continue;
    listed ??= [];
    for (const coding of headers[i + 1]!.toLowerCase().split(",")) {
      const name = coding.trim();
      if (name && name !== "identity") listed.push(name);
    }
  }
  if (listed === null) return null;
  const chunked = listed.at(-1) === "chunked";
  const codings = chunked ? listed.slice(0, -1) : listed;
  if (bodiless) return { chunked, codings: [] };
  if (!decodable(codings)) throw parseFailure(UNSUPPORTED_TRANSFER_CODING);
  return { chunked, codings };
}

/**
 * The parser members read or replaced by `strict` and answerParser (pinned: http-parser-js
 * 0.5.10).
 */
interface ParserInternals {
  state: string;
  /** Whether the body is read as chunks; read after the head's handler returns. */
  isChunked: boolean;
  /** A line read so far, its end not yet seen. */
  line: string;
  offset: number;
  end: number;
  body_bytes: number | null;
  consumeLine(): string | undefined;
  parseHeader(line: string, headers: string[]): void;
  nextRequest(): void;
  BODY_CHUNKHEAD(): void;
  BODY_CHUNKTRAILERS(): void;
  /** The state after the final answer (see `strict`). */
  ANSWERED(): void;
}

/** A chunk size: hex digits (at most 13, a safe integer), then any chunk extensions. */
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,13})[ \t]*(?:;.*)?$/;
/** A Content-Length: digits only (RFC 9112), a safe integer. */
const CONTENT_LENGTH = /^[ \t]*\d{1,15}[ \t]*$/;
/** A header line of blanks only: an empty obs-fold continuation, which adds nothing. */
const BLANKS = /^[ \t]*$/;
/** The states in which the parser reads an answer's head (interim answers' included). */
const HEAD_STATES = new Set(["RESPONSE_LINE", "HEADER"]);

function parseFailure(code: string): Error {
  return Object.assign(new Error("Parse Error"), { code });
}

/**
 * http-parser-js made strict where it trusts the answer's framing. It read a chunk size with
 * parseInt: `-5` sent its cursor back over its own bytes forever, freezing the event loop, and
 * `zz` ended the body early. It read Content-Length with `+`: `abc` or `2.5` framed a body of
 * nothing or half a byte. And it kept a chunk-size line of any length, and any number of
 * trailer lines, in memory: outside the head's cap (MAX_HEAD), a target could fill the heap.
 *
 * It also capped each head alone, and only between reads: endless interim answers (`100
 * Continue`) were read until the deadline, and after one the cap was back to its own 80 KB.
 * Here the heads of one exchange share MAX_HEAD, and so do its chunk extensions, as in
 * node:http since CVE-2024-22019 (a byte of body per 16 KB chunk line was read until the
 * deadline). Its obs-fold pattern backtracks over a line of blanks in quadratic time (16 KB of
 * them held the event loop for 0.2 s): such a line, which adds nothing, is skipped. And once
 * `answered()`, the bytes after the answer are not parsed: a body after a HEAD answer or a 204
 * read as the next answer's status line, which failed the answer already read.
 */
function strict(parser: Parser, answered: () => boolean): void {
  const internals = parser as unknown as ParserInternals;
  const consumeLine = internals.consumeLine;
  let headBytes = 0;
  internals.consumeLine = function (this: ParserInternals) {
    const from = this.offset;
    const inHead = HEAD_STATES.has(this.state);
    const line = consumeLine.call(this);
    if ((line ?? this.line).length > MAX_HEAD) throw parseFailure("HPE_HEADER_OVERFLOW");
    if (inHead && (headBytes += this.offset - from) > MAX_HEAD) {
      throw parseFailure("HPE_HEADER_OVERFLOW");
    }
    return line;
  };
  const parseHeader = internals.parseHeader;
  internals.parseHeader = function (this: ParserInternals, line, headers) {
    if (!BLANKS.test(line)) parseHeader.call(this, line, headers);
  };
  let extensionBytes = 0;
  internals.BODY_CHUNKHEAD = function (this: ParserInternals) {
    const line = this.consumeLine();
    if (line === undefined) return;
    const size = CHUNK_SIZE.exec(line);
    if (!size) throw parseFailure("HPE_INVALID_CHUNK_SIZE");
    if ((extensionBytes += line.length - size[1]!.length) > MAX_HEAD) {
      throw parseFailure("HPE_CHUNK_EXTENSIONS_OVERFLOW");
    }
    this.body_bytes = parseInt(size[1]!, 16);
    this.state = this.body_bytes === 0 ? "BODY_CHUNKTRAILERS" : "BODY_CHUNK";
  };
  const readTrailers = internals.BODY_CHUNKTRAILERS;
  let trailerBytes = 0;
  internals.BODY_CHUNKTRAILERS = function (this: ParserInternals) {
    const from = this.offset;
    readTrailers.call(this);
    trailerBytes += this.offset - from;
    if (trailerBytes > MAX_HEAD) throw parseFailure("HPE_HEADER_OVERFLOW");
  };
  const nextRequest = internals.nextRequest;
  internals.nextRequest = function (this: ParserInternals) {
    nextRequest.call(this); // reports the answer's end, then readies for another answer
    if (answered()) this.state = "ANSWERED";
  };
  internals.ANSWERED = function (this: ParserInternals) {
    this.offset = this.end;
  };
}

/** Throws when a Content-Length of the head `headers` is not a number of bytes. */
function checkLengths(headers: string[]): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== "content-length") continue;
    if (!CONTENT_LENGTH.test(headers[i + 1]!)) throw parseFailure("HPE_INVALID_CONTENT_LENGTH");
  }
}

/**
 * The head `headers` with one Location: a value repeated is kept once, two different values are
 * refused. Two targets in one answer are a sign of header injection or smuggling, and joined
 * with ", " they made a third URL nobody sent; Chromium refuses them likewise
 * (ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION) and takes a repeated value as it is, as here.
 */
function singleLocation(headers: string[]): string[] {
  let location: string | null = null;
  let repeated = false;
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== "location") continue;
    if (location === null) location = headers[i + 1]!;
    else if (headers[i + 1] === location) repeated = true;
    else throw parseFailure(MULTIPLE_LOCATION);
  }
  if (!repeated) return headers;
  const kept: string[] = [];
  let seen = false;
  for (let i = 0; i < headers.length; i += 2) {
    const isLocation = headers[i]!.toLowerCase() === "location";
    if (isLocation && seen) continue;
    seen ||= isLocation;
    kept.push(headers[i]!, headers[i + 1]!);
  }
  return kept;
}

/** The parse error of an answer with two different Location headers. */
export const MULTIPLE_LOCATION = "HPE_MULTIPLE_LOCATION";

/** Reads one answer as its bytes arrive. */
export interface AnswerReader {
  /**
   * Feeds bytes read off the connection; a malformed answer throws parseError's error. Bytes
   * after the final answer are ignored (the connection is then not reusable).
   */
  feed(bytes: Buffer): void;
  /** The connection ended: ends a connection-delimited body, or throws parseError's error. */
  finish(): void;
}

/** A reader of the answer to `method`, reporting to `events`. */
export function answerParser(method: HopRequest["method"], events: AnswerEvents): AnswerReader {
  const parser = new HTTPParser(HTTPParser.RESPONSE);
  parser.maxHeaderSize = MAX_HEAD;
  let final: { versionMajor: number; versionMinor: number; headers: string[] } | null = null;
  strict(parser, () => final !== null);
  let bodiless = false;
  let transfer: TransferFraming | null = null;
  parser[HTTPParser.kOnHeadersComplete] = (info) => {
    checkLengths(info.headers);
    info.headers = singleLocation(info.headers);
    // Never asked for: a 101 would leave the connection to another protocol, unread.
    if (info.statusCode < 100 || info.statusCode === 101) {
      throw parseFailure("HPE_INVALID_STATUS");
    }
    // An interim answer (100 Continue, 103 Early Hints): the final one follows.
    if (info.statusCode < 200) return 1;
    bodiless = method === "HEAD" || NO_BODY.has(info.statusCode);
    transfer = transferFraming(info.headers, bodiless);
    if (transfer) {
      // A Transfer-Encoding overrides any Content-Length (RFC 9112, 6.3).
      const internals = parser as unknown as ParserInternals;
      internals.isChunked = transfer.chunked;
      internals.body_bytes = null;
    }
    final = info;
    const { statusCode, headers } = info;
    events.head({ statusCode, headers, transferCodings: transfer?.codings ?? [] });
    return bodiless ? 1 : 0;
  };
  // The body pieces of one feed go on as one: a body sent in 1-byte chunks made an array per
  // byte, about a hundred times the body in memory (RSS up 605 MB in 3 s of such a body).
  let pieces: Buffer[] = [];
  const handOn = () => {
    if (pieces.length > 0) events.body(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));
    pieces = [];
  };
  parser[HTTPParser.kOnBody] = (chunk, offset, length) => {
    if (length > 0) pieces.push(chunk.subarray(offset, offset + length));
  };
  parser[HTTPParser.kOnMessageComplete] = () => {
    // The end of an interim answer is not the answer's.
    if (!final) return;
    handOn();
    events.complete(answerEndsCleanly(final, bodiless, transfer, parser as unknown as Cursor));
  };
  return {
    feed(bytes) {
      let parsed: number | Error;
      try {
        parsed = parser.execute(bytes);
      } catch (error) {
        parsed = error as Error;
      }
      if (parsed instanceof Error) throw parseError(parsed);
      handOn();
    },
    finish() {
      const ended = parser.finish();
      if (ended instanceof Error) throw parseError(ended);
    },
  };
}
