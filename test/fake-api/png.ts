/**
 * A real PNG without a compression library: the image data goes into "stored" deflate blocks,
 * which every PNG reader accepts. Good enough for a small letterhead preview.
 */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(data: Buffer): number {
	let crc = 0xffffffff;
	for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

function adler32(data: Buffer): number {
	let a = 1;
	let b = 0;
	for (const byte of data) {
		a = (a + byte) % 65521;
		b = (b + a) % 65521;
	}
	return ((b << 16) | a) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'ascii');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
	return Buffer.concat([head, data, crc]);
}

function zlibStored(raw: Buffer): Buffer {
	const parts: Buffer[] = [Buffer.from([0x78, 0x01])];
	for (let offset = 0; offset < raw.length || offset === 0; offset += 65535) {
		const block = raw.subarray(offset, offset + 65535);
		const last = offset + 65535 >= raw.length ? 1 : 0;
		const header = Buffer.alloc(5);
		header[0] = last;
		header.writeUInt16LE(block.length, 1);
		header.writeUInt16LE(~block.length & 0xffff, 3);
		parts.push(header, block);
		if (last) break;
	}
	const adler = Buffer.alloc(4);
	adler.writeUInt32BE(adler32(raw), 0);
	parts.push(adler);
	return Buffer.concat(parts);
}

/** A white A4-shaped preview with a coloured band along the top, like a letterhead. */
export function letterheadPng(width = 62, height = 88, rgb: [number, number, number] = [31, 78, 156]): Buffer {
	const rows: Buffer[] = [];
	for (let y = 0; y < height; y++) {
		const row = Buffer.alloc(1 + width * 3, 255);
		row[0] = 0;
		if (y < Math.round(height / 8)) {
			for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
		}
		rows.push(row);
	}
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8; // bit depth
	header[9] = 2; // truecolour
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', zlibStored(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}
