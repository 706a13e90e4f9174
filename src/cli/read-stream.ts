/**
 * A stream read whole, or up to a cap: standard input can be endless (`< /dev/zero`), and a
 * reader that needs only its first bytes stops there.
 */
export async function readAll(
  stream: NodeJS.ReadableStream,
  cap: number = Number.POSITIVE_INFINITY,
): Promise<Uint8Array> {
  const pieces: Buffer[] = [];
  let got = 0;
  for await (const piece of stream) {
    const bytes = typeof piece === "string" ? Buffer.from(piece) : (piece as Buffer);
    pieces.push(bytes.length > cap - got ? bytes.subarray(0, cap - got) : bytes);
    got += Math.min(bytes.length, cap - got);
    if (got === cap) break;
  }
  return Buffer.concat(pieces);
}
