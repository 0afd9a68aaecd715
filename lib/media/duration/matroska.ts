/** WebM/Matroska duration: Segment > Info > Duration (float) * TimecodeScale (ns). */

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const CLUSTER = 0x1f43b675;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

interface Vint {
  value: number;
  length: number;
  /** All value bits set: the element's size is unknown (live streams). */
  unknown: boolean;
}

/** EBML variable-size integer; `keepMarker` for element IDs, which keep their length bit. */
function vint(b: Uint8Array, at: number, keepMarker: boolean): Vint | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23; // 1..8
  if (at + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === (0xff >> length);
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i]!;
    allOnes = allOnes && b[at + i] === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

interface Element {
  id: number;
  data: number;
  /** One past the element's end; Infinity when its size is unknown. */
  end: number;
}

function element(b: Uint8Array, at: number): Element | null {
  const id = vint(b, at, true);
  if (!id) return null;
  const size = vint(b, at + id.length, false);
  if (!size) return null;
  const data = at + id.length + size.length;
  return { id: id.value, data, end: size.unknown ? Infinity : data + size.value };
}

function readUint(b: Uint8Array, e: Element): number {
  let value = 0;
  for (let i = e.data; i < e.end; i++) value = value * 256 + b[i]!;
  return value;
}

function readFloat(b: Uint8Array, e: Element): number | null {
  const view = new DataView(b.buffer, b.byteOffset + e.data, e.end - e.data);
  if (e.end - e.data === 4) return view.getFloat32(0);
  if (e.end - e.data === 8) return view.getFloat64(0);
  return null;
}

export function matroskaDuration(b: Uint8Array): number | null {
  const header = element(b, 0);
  if (!header || header.id !== EBML) return null;
  const segment = element(b, header.end);
  if (!segment || segment.id !== SEGMENT) return null;
  for (let at = segment.data; at < Math.min(b.length, segment.end);) {
    const child = element(b, at);
    if (!child || child.id === CLUSTER || child.end === Infinity) return null;
    if (child.id === INFO) {
      if (child.end > b.length) return null;
      let scale = 1_000_000; // default TimecodeScale: milliseconds
      let duration: number | null = null;
      for (let inner = child.data; inner < child.end;) {
        const e = element(b, inner);
        if (!e || e.end > child.end) break;
        if (e.id === TIMECODE_SCALE) scale = readUint(b, e);
        if (e.id === DURATION) duration = readFloat(b, e);
        inner = e.end;
      }
      return duration !== null && duration > 0 && scale > 0 ? (duration * scale) / 1e9 : null;
    }
    at = child.end;
  }
  return null;
}
