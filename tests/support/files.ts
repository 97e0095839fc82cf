import zlib from "node:zlib";

/** Real, tiny files built in code, for upload tests (the server sniffs bytes, so they must be the real thing). */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A valid `width`×`height` RGB PNG in one colour. */
export function makePng(width = 2, height = 2, rgb: [number, number, number] = [15, 76, 92]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(pixels)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A valid one-page PDF saying `text`, with a correct cross-reference table. */
export function makePdf(text = "Pillar test document"): Buffer {
  const stream = `BT /F1 18 Tf 40 100 Td (${text.replace(/[()\\]/g, "")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** 1×1 baseline JPEG. */
export const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);
/** 1×1 GIF89a. */
export const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
/** 1×1 lossy WebP. */
export const WEBP = Buffer.from("UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA", "base64");
export const PNG = makePng();
export const PDF = makePdf();

/** The start of a Windows executable (MZ … PE): what a renamed .png/.pdf really is. */
export const EXE = (() => {
  const buf = Buffer.alloc(256);
  buf.write("MZ", 0, "latin1");
  buf.writeUInt32LE(0x80, 0x3c);
  buf.write("PE\0\0", 0x80, "latin1");
  return buf;
})();

/** An HTML page posing as an image: must never be stored, let alone served as text/html. */
export const HTML = Buffer.from("<!doctype html><script>alert(document.cookie)</script>", "utf8");

/** A PNG signature followed by zeros: 11 MB, over the 10 MB limit whatever its type. */
export const OVERSIZED_PNG = (() => {
  const buf = Buffer.alloc(11 * 1024 * 1024);
  PNG.copy(buf, 0, 0, 8);
  return buf;
})();

/** Exactly 10 MB (10485760 bytes) starting like a PDF: the largest file accepted. */
export const MAX_SIZE_PDF = (() => {
  const buf = Buffer.alloc(10_485_760, 0x20);
  PDF.copy(buf, 0);
  return buf;
})();

interface Injector {
  inject(options: {
    method: "POST" | "PUT";
    url: string;
    headers?: Record<string, string>;
    payload?: Buffer | string | object;
  }): Promise<{ statusCode: number; body: string; json(): unknown }>;
}

export interface UploadResult {
  uploadURL: string;
  objectPath: string;
  /** Status and JSON of the PUT (local back end) or of the S3 PUT. */
  putStatus: number;
  putBody: string;
}

/** The spec's two-step upload as a browser does it: ask for a URL, then PUT the bytes there with a content type. */
export async function uploadFile(
  app: Injector,
  cookie: string,
  bytes: Buffer,
  contentType = "image/png",
): Promise<UploadResult> {
  const res = await app.inject({ method: "POST", url: "/api/objects/upload", headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`upload URL failed: ${res.statusCode} ${res.body}`);
  const { uploadURL, objectPath } = res.json() as { uploadURL: string; objectPath: string };
  if (uploadURL.startsWith("/")) {
    const put = await app.inject({
      method: "PUT",
      url: uploadURL,
      headers: { cookie, "content-type": contentType },
      payload: bytes,
    });
    return { uploadURL, objectPath, putStatus: put.statusCode, putBody: put.body };
  }
  const put = await fetch(uploadURL, {
    method: "PUT",
    body: new Uint8Array(bytes),
    headers: { "content-type": contentType },
  });
  return { uploadURL, objectPath, putStatus: put.status, putBody: await put.text() };
}
