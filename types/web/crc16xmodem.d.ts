// Renderer-side types for crc's CRC16-XMODEM calculator: the package's own types reference Node's, which must
// not leak into the browser type-check (tsconfig.web.json maps the module here). The function is plain JS.
declare const crc16xmodem: (data: Uint8Array, previous?: number) => number;
export default crc16xmodem;
