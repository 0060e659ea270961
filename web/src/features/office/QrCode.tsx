/** QUIET is the white margin a scanner needs around the code, in modules. */
const QUIET = 4;

/**
 * qrPath draws the dark modules as one SVG path, one rectangle per run of
 * dark modules in a row (fewer nodes than one per module), shifted by the
 * quiet zone.
 */
export function qrPath(rows: string[]): string {
  const parts: string[] = [];
  rows.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (row[x] !== '1') {
        x++;
        continue;
      }
      let end = x;
      while (row[end] === '1') end++;
      parts.push(`M${x + QUIET} ${y + QUIET}h${end - x}v1h-${end - x}z`);
      x = end;
    }
  });
  return parts.join('');
}

/**
 * QrCode is the invitation's link as a QR code, drawn from the server's
 * modules ("1" dark) as an inline SVG — no script or image to fetch, and
 * nothing the strict CSP refuses. Its size on screen (about 240 px) is in
 * the stylesheet; crispEdges keeps the modules sharp when scaled.
 */
export function QrCode({ rows, size, label }: { rows: string[]; size: number; label: string }) {
  const n = Math.max(size, rows.length) + 2 * QUIET;
  return (
    <svg className="qr" role="img" aria-label={label} viewBox={`0 0 ${n} ${n}`} shapeRendering="crispEdges" xmlns="http://www.w3.org/2000/svg">
      <rect width={n} height={n} fill="#fff" />
      <path d={qrPath(rows)} fill="#000" />
    </svg>
  );
}
