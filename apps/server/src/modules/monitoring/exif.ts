/**
 * The little of EXIF a monitor's photograph needs: when (DateTimeOriginal, else DateTime) and
 * where (GPS latitude and longitude). `buffer` is sharp's `metadata().exif` (starting "Exif\0\0"
 * then a TIFF header). Anything unreadable answers nulls; the browser's values are used then.
 */

export interface ExifFacts {
  takenAt: Date | null;
  latitude: number | null;
  longitude: number | null;
}

const NONE: ExifFacts = { takenAt: null, latitude: null, longitude: null };

export function readExif(buffer: Buffer | undefined): ExifFacts {
  if (!buffer || buffer.length < 14) return NONE;
  try {
    const base = buffer.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
    const order = buffer.subarray(base, base + 2).toString('latin1');
    if (order !== 'II' && order !== 'MM') return NONE;
    const le = order === 'II';
    const u16 = (o: number) => (le ? buffer.readUInt16LE(base + o) : buffer.readUInt16BE(base + o));
    const u32 = (o: number) => (le ? buffer.readUInt32LE(base + o) : buffer.readUInt32BE(base + o));
    type Entry = { tag: number; type: number; count: number; valueAt: number };
    const ifd = (offset: number): Entry[] => {
      const n = u16(offset);
      const out: Entry[] = [];
      for (let i = 0; i < n && i < 512; i++) {
        const e = offset + 2 + i * 12;
        const type = u16(e + 2);
        const count = u32(e + 4);
        const size = ([0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8][type] ?? 1) * count;
        out.push({ tag: u16(e), type, count, valueAt: size <= 4 ? e + 8 : u32(e + 8) });
      }
      return out;
    };
    const ascii = (e: Entry) =>
      buffer
        .subarray(base + e.valueAt, base + e.valueAt + e.count)
        .toString('latin1')
        .replace(/\0+$/, '');
    const rationals = (e: Entry) =>
      Array.from({ length: e.count }, (_, i) => {
        const den = u32(e.valueAt + i * 8 + 4);
        return den === 0 ? 0 : u32(e.valueAt + i * 8) / den;
      });
    const ifd0 = ifd(u32(4));
    let dateText: string | null = ifd0.find((e) => e.tag === 0x0132)
      ? ascii(ifd0.find((e) => e.tag === 0x0132) as Entry)
      : null;
    const exifPtr = ifd0.find((e) => e.tag === 0x8769);
    if (exifPtr) {
      const original = ifd(u32(exifPtr.valueAt)).find((e) => e.tag === 0x9003);
      if (original) dateText = ascii(original);
    }
    let latitude: number | null = null;
    let longitude: number | null = null;
    const gpsPtr = ifd0.find((e) => e.tag === 0x8825);
    if (gpsPtr) {
      const gps = ifd(u32(gpsPtr.valueAt));
      const get = (tag: number) => gps.find((e) => e.tag === tag);
      const dms = (e: Entry | undefined) => {
        if (!e) return null;
        const [d = 0, m = 0, s = 0] = rationals(e);
        return d + m / 60 + s / 3600;
      };
      const lat = dms(get(2));
      const lng = dms(get(4));
      const latRef = get(1) ? ascii(get(1) as Entry) : 'N';
      const lngRef = get(3) ? ascii(get(3) as Entry) : 'E';
      if (lat !== null && lng !== null) {
        latitude = latRef === 'S' ? -lat : lat;
        longitude = lngRef === 'W' ? -lng : lng;
      }
    }
    const m = dateText?.match(/^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/);
    // EXIF times carry no zone: read as UTC (the server's clock of the schedule check).
    const takenAt = m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : null;
    return {
      takenAt: takenAt && !Number.isNaN(takenAt.getTime()) ? takenAt : null,
      latitude,
      longitude,
    };
  } catch {
    return NONE;
  }
}
