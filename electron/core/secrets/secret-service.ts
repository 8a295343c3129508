// A minimal D-Bus client for the freedesktop Secret Service (Linux), just enough to find, read and delete the items
// keytar wrote (libsecret's generic schema: attributes `service` and `account`), which @napi-rs/keyring cannot see
// because it stores `service` and `username`. Pure Node (node:net): no native module, no extra dependency.
// Invariant: secret values are only returned to the caller, never put into an error message.
import { connect, type Socket } from 'node:net';

type Value = unknown;

/** A D-Bus variant to send: its signature and value. */
export interface Variant {
  readonly signature: string;
  readonly value: Value;
}

/** Splits a signature into complete types ("a{ss}s" → ["a{ss}", "s"]). */
function splitTypes(signature: string): string[] {
  const types: string[] = [];
  let index = 0;
  while (index < signature.length) {
    const end = completeTypeEnd(signature, index);
    types.push(signature.slice(index, end));
    index = end;
  }
  return types;
}

function completeTypeEnd(signature: string, start: number): number {
  const code = signature[start];
  if (code === 'a') return completeTypeEnd(signature, start + 1);
  if (code === '(' || code === '{') {
    const close = code === '(' ? ')' : '}';
    let index = start + 1;
    while (signature[index] !== close) {
      if (index >= signature.length) throw new Error(`bad D-Bus signature ${signature}`);
      index = completeTypeEnd(signature, index);
    }
    return index + 1;
  }
  if (code === undefined) throw new Error(`bad D-Bus signature ${signature}`);
  return start + 1;
}

function alignmentOf(type: string): number {
  switch (type[0]) {
    case 'y':
    case 'g':
    case 'v':
      return 1;
    case 'n':
    case 'q':
      return 2;
    case 'b':
    case 'i':
    case 'u':
    case 's':
    case 'o':
    case 'a':
    case 'h':
      return 4;
    default:
      return 8; // x t d ( {
  }
}

class Writer {
  #buffer = Buffer.alloc(256);
  length = 0;

  #ensure(extra: number): void {
    if (this.length + extra <= this.#buffer.length) return;
    const grown = Buffer.alloc(Math.max(this.#buffer.length * 2, this.length + extra));
    this.#buffer.copy(grown, 0, 0, this.length);
    this.#buffer = grown;
  }

  align(to: number): void {
    const padding = (to - (this.length % to)) % to;
    this.#ensure(padding);
    this.#buffer.fill(0, this.length, this.length + padding);
    this.length += padding;
  }

  bytes(data: Buffer): void {
    this.#ensure(data.length);
    data.copy(this.#buffer, this.length);
    this.length += data.length;
  }

  uint8(value: number): void {
    this.#ensure(1);
    this.#buffer.writeUInt8(value, this.length);
    this.length += 1;
  }

  uint32(value: number): void {
    this.align(4);
    this.#ensure(4);
    this.#buffer.writeUInt32LE(value, this.length);
    this.length += 4;
  }

  patchUint32(at: number, value: number): void {
    this.#buffer.writeUInt32LE(value, at);
  }

  result(): Buffer {
    return this.#buffer.subarray(0, this.length);
  }

  write(type: string, value: Value): void {
    const code = type[0];
    switch (code) {
      case 'y':
        this.uint8(Number(value));
        return;
      case 'b':
        this.uint32(value ? 1 : 0);
        return;
      case 'u':
        this.uint32(Number(value));
        return;
      case 'i':
        this.align(4);
        this.#ensure(4);
        this.#buffer.writeInt32LE(Number(value), this.length);
        this.length += 4;
        return;
      case 's':
      case 'o': {
        const text = Buffer.from(String(value), 'utf8');
        this.uint32(text.length);
        this.bytes(text);
        this.uint8(0);
        return;
      }
      case 'g': {
        const text = Buffer.from(String(value), 'utf8');
        this.uint8(text.length);
        this.bytes(text);
        this.uint8(0);
        return;
      }
      case 'v': {
        const variant = value as Variant;
        this.write('g', variant.signature);
        this.write(variant.signature, variant.value);
        return;
      }
      case 'a': {
        const element = type.slice(1);
        this.uint32(0);
        const lengthAt = this.length - 4;
        this.align(alignmentOf(element));
        const start = this.length;
        if (element[0] === '{') {
          const [keyType, valueType] = splitTypes(element.slice(1, -1)) as [string, string];
          const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as Record<string, Value>);
          for (const [key, item] of entries) {
            this.align(8);
            this.write(keyType, key);
            this.write(valueType, item);
          }
        } else if (element === 'y' && Buffer.isBuffer(value)) {
          this.bytes(value);
        } else {
          for (const item of value as Value[]) this.write(element, item);
        }
        this.patchUint32(lengthAt, this.length - start);
        return;
      }
      case '(': {
        this.align(8);
        const fields = splitTypes(type.slice(1, -1));
        const items = value as Value[];
        fields.forEach((field, index) => this.write(field, items[index]));
        return;
      }
      default:
        throw new Error(`D-Bus type ${type} is not supported here`);
    }
  }
}

class Reader {
  offset = 0;
  constructor(
    private readonly buffer: Buffer,
    start = 0,
  ) {
    this.offset = start;
  }

  align(to: number): void {
    this.offset += (to - (this.offset % to)) % to;
  }

  #need(count: number): void {
    if (this.offset + count > this.buffer.length) throw new Error('truncated D-Bus message');
  }

  read(type: string): Value {
    const code = type[0];
    switch (code) {
      case 'y':
        this.#need(1);
        return this.buffer.readUInt8(this.offset++);
      case 'b':
      case 'u':
      case 'h': {
        this.align(4);
        this.#need(4);
        const value = this.buffer.readUInt32LE(this.offset);
        this.offset += 4;
        return code === 'b' ? value !== 0 : value;
      }
      case 'i': {
        this.align(4);
        this.#need(4);
        const value = this.buffer.readInt32LE(this.offset);
        this.offset += 4;
        return value;
      }
      case 'n':
      case 'q': {
        this.align(2);
        this.#need(2);
        const value = code === 'n' ? this.buffer.readInt16LE(this.offset) : this.buffer.readUInt16LE(this.offset);
        this.offset += 2;
        return value;
      }
      case 'x':
      case 't':
      case 'd': {
        this.align(8);
        this.#need(8);
        const value =
          code === 'd'
            ? this.buffer.readDoubleLE(this.offset)
            : code === 'x'
              ? this.buffer.readBigInt64LE(this.offset)
              : this.buffer.readBigUInt64LE(this.offset);
        this.offset += 8;
        return value;
      }
      case 's':
      case 'o': {
        const length = this.read('u') as number;
        this.#need(length + 1);
        const text = this.buffer.toString('utf8', this.offset, this.offset + length);
        this.offset += length + 1;
        return text;
      }
      case 'g': {
        const length = this.read('y') as number;
        this.#need(length + 1);
        const text = this.buffer.toString('utf8', this.offset, this.offset + length);
        this.offset += length + 1;
        return text;
      }
      case 'v': {
        const signature = this.read('g') as string;
        return this.read(signature);
      }
      case 'a': {
        const element = type.slice(1);
        const length = this.read('u') as number;
        this.align(alignmentOf(element));
        const end = this.offset + length;
        this.#need(length);
        if (element === 'y') {
          const bytes = Buffer.from(this.buffer.subarray(this.offset, end));
          this.offset = end;
          return bytes;
        }
        if (element[0] === '{') {
          const [keyType, valueType] = splitTypes(element.slice(1, -1)) as [string, string];
          const map = new Map<Value, Value>();
          while (this.offset < end) {
            this.align(8);
            const key = this.read(keyType);
            map.set(key, this.read(valueType));
          }
          return map;
        }
        const items: Value[] = [];
        while (this.offset < end) items.push(this.read(element));
        return items;
      }
      case '(': {
        this.align(8);
        return splitTypes(type.slice(1, -1)).map((field) => this.read(field));
      }
      default:
        throw new Error(`D-Bus type ${type} is not supported here`);
    }
  }
}

const METHOD_CALL = 1;
const METHOD_RETURN = 2;
const ERROR = 3;
const SIGNAL = 4;

interface Message {
  readonly type: number;
  readonly serial: number;
  readonly fields: Map<number, Value>;
  readonly body: Value[];
}

/** One complete message at the start of `buffer`, or undefined when more bytes are needed. */
function parseMessage(buffer: Buffer): { message: Message; length: number } | undefined {
  if (buffer.length < 16) return undefined;
  if (buffer[0] !== 0x6c) throw new Error('the D-Bus peer sent a big-endian message (not supported here)');
  const bodyLength = buffer.readUInt32LE(4);
  const fieldsLength = buffer.readUInt32LE(12);
  const headerEnd = 16 + fieldsLength + ((8 - ((16 + fieldsLength) % 8)) % 8);
  const total = headerEnd + bodyLength;
  if (buffer.length < total) return undefined;
  const message = buffer.subarray(0, total);
  const header = new Reader(message, 12);
  const fieldList = header.read('a(yv)') as Array<[number, Value]>;
  const fields = new Map<number, Value>(fieldList.map(([code, value]) => [code, value]));
  const signature = (fields.get(8) as string | undefined) ?? '';
  const bodyReader = new Reader(message.subarray(headerEnd));
  const body = splitTypes(signature).map((type) => bodyReader.read(type));
  return { message: { type: buffer[1] ?? 0, serial: buffer.readUInt32LE(8), fields, body }, length: total };
}

function encodeCall(serial: number, destination: string, path: string, iface: string, member: string, signature: string, args: Value[]): Buffer {
  const body = new Writer();
  const types = splitTypes(signature);
  types.forEach((type, index) => body.write(type, args[index]));
  const bodyBytes = body.result();
  const fields: Array<[number, Variant]> = [
    [1, { signature: 'o', value: path }],
    [2, { signature: 's', value: iface }],
    [3, { signature: 's', value: member }],
    [6, { signature: 's', value: destination }],
  ];
  if (signature) fields.push([8, { signature: 'g', value: signature }]);
  const message = new Writer();
  message.uint8(0x6c);
  message.uint8(METHOD_CALL);
  message.uint8(0);
  message.uint8(1);
  message.uint32(bodyBytes.length);
  message.uint32(serial);
  message.write('a(yv)', fields);
  message.align(8);
  message.bytes(bodyBytes);
  return Buffer.from(message.result());
}

/** The socket path of a D-Bus address (`unix:path=…` or `unix:abstract=…`; the first usable one). */
function socketPathOf(address: string): string {
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    if (entry.slice(0, colon) !== 'unix') continue;
    const params = new Map(
      entry
        .slice(colon + 1)
        .split(',')
        .map((pair) => {
          const equals = pair.indexOf('=');
          return [pair.slice(0, equals), decodeURIComponent(pair.slice(equals + 1))] as const;
        }),
    );
    const path = params.get('path');
    if (path) return path;
    const abstract = params.get('abstract');
    if (abstract) return `\0${abstract}`;
  }
  throw new Error('the session bus address has no unix:path or unix:abstract socket');
}

/** A D-Bus error reply. */
export class DBusError extends Error {
  constructor(
    readonly dbusName: string,
    message: string,
  ) {
    super(`${dbusName}: ${message}`);
    this.name = 'DBusError';
  }
}

/** A connection to the session bus: method calls and signal waits, nothing more. */
export class SessionBus {
  readonly #socket: Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #serial = 0;
  readonly #pending = new Map<number, { resolve: (body: Value[]) => void; reject: (error: Error) => void }>();
  readonly #signalWaiters = new Set<(message: Message) => void>();
  #closed: Error | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
  }

  /** Connects to DBUS_SESSION_BUS_ADDRESS, authenticates (EXTERNAL, as this process's uid) and says Hello. */
  static async open(address = process.env.DBUS_SESSION_BUS_ADDRESS, timeoutMs = 5000): Promise<SessionBus> {
    if (!address) throw new Error('DBUS_SESSION_BUS_ADDRESS is not set: no session bus to reach the Secret Service');
    const socket = connect(socketPathOf(address));
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('the session bus did not answer in time')));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    const reply = await new Promise<string>((resolve, reject) => {
      let text = '';
      const onData = (chunk: Buffer): void => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n')) {
          socket.off('data', onData);
          resolve(text);
        }
      };
      socket.on('data', onData);
      socket.once('error', reject);
      socket.write(`\0AUTH EXTERNAL ${Buffer.from(String(uid), 'ascii').toString('hex')}\r\n`);
    });
    if (!reply.startsWith('OK ')) throw new Error(`the session bus refused authentication (${reply.trim().slice(0, 80)})`);
    socket.write('BEGIN\r\n');
    socket.setTimeout(0);
    const bus = new SessionBus(socket);
    socket.on('data', (chunk: Buffer) => bus.#receive(chunk));
    socket.on('error', (error) => bus.#fail(error));
    socket.on('close', () => bus.#fail(new Error('the session bus connection closed')));
    await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello', '', []);
    return bus;
  }

  call(destination: string, path: string, iface: string, member: string, signature: string, args: Value[], timeoutMs = 25_000): Promise<Value[]> {
    if (this.#closed) return Promise.reject(this.#closed);
    this.#serial += 1;
    const serial = this.#serial;
    return new Promise<Value[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(serial);
        reject(new Error(`${iface}.${member} did not answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.#pending.set(serial, {
        resolve: (body) => {
          clearTimeout(timer);
          resolve(body);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#socket.write(encodeCall(serial, destination, path, iface, member, signature, args));
    });
  }

  /** Resolves with the body of the first signal `member` from object `path` (register before triggering it). */
  waitForSignal(path: string, member: string, timeoutMs: number): Promise<Value[]> {
    return new Promise<Value[]>((resolve, reject) => {
      const waiter = (message: Message): void => {
        if (message.fields.get(1) === path && message.fields.get(3) === member) {
          this.#signalWaiters.delete(waiter);
          clearTimeout(timer);
          resolve(message.body);
        }
      };
      const timer = setTimeout(() => {
        this.#signalWaiters.delete(waiter);
        reject(new Error(`no ${member} signal from ${path} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.#signalWaiters.add(waiter);
    });
  }

  close(): void {
    this.#closed ??= new Error('the session bus connection was closed');
    this.#socket.destroy();
  }

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      let parsed: ReturnType<typeof parseMessage>;
      try {
        parsed = parseMessage(this.#buffer);
      } catch (error) {
        this.#fail(error instanceof Error ? error : new Error(String(error)));
        this.#socket.destroy();
        return;
      }
      if (!parsed) return;
      this.#buffer = this.#buffer.subarray(parsed.length);
      const { message } = parsed;
      if (message.type === METHOD_RETURN || message.type === ERROR) {
        const serial = message.fields.get(5) as number | undefined;
        const pending = serial === undefined ? undefined : this.#pending.get(serial);
        if (!pending || serial === undefined) continue;
        this.#pending.delete(serial);
        if (message.type === METHOD_RETURN) pending.resolve(message.body);
        else pending.reject(new DBusError(String(message.fields.get(4) ?? 'error'), String(message.body[0] ?? '')));
      } else if (message.type === SIGNAL) {
        for (const waiter of [...this.#signalWaiters]) waiter(message);
      }
    }
  }

  #fail(error: Error): void {
    this.#closed ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';

/** An item found by attributes, with all its attributes. */
export interface SecretItem {
  readonly path: string;
  readonly attributes: ReadonlyMap<string, string>;
}

/** The Secret Service over one session-bus connection, with a `plain` transfer session (the bus is local). */
export class SecretService {
  private constructor(
    private readonly bus: SessionBus,
    private readonly session: string,
  ) {}

  static async open(address?: string): Promise<SecretService> {
    const bus = await SessionBus.open(address);
    try {
      const [, session] = await bus.call(SECRETS, SERVICE_PATH, 'org.freedesktop.Secret.Service', 'OpenSession', 'sv', [
        'plain',
        { signature: 's', value: '' },
      ]);
      return new SecretService(bus, String(session));
    } catch (error) {
      bus.close();
      throw error;
    }
  }

  /** Items whose attributes include all of `attributes`; locked ones are unlocked first (the user may be asked). */
  async search(attributes: Record<string, string>): Promise<SecretItem[]> {
    const [unlocked, locked] = (await this.bus.call(SECRETS, SERVICE_PATH, 'org.freedesktop.Secret.Service', 'SearchItems', 'a{ss}', [
      attributes,
    ])) as [string[], string[]];
    const paths = [...unlocked];
    if (locked.length > 0) paths.push(...(await this.#unlock(locked)));
    const items: SecretItem[] = [];
    for (const path of paths) {
      const [value] = await this.bus.call(SECRETS, path, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [
        'org.freedesktop.Secret.Item',
        'Attributes',
      ]);
      items.push({ path, attributes: value as Map<string, string> });
    }
    return items;
  }

  /** The item's secret as UTF-8 text. */
  async readText(item: SecretItem): Promise<string> {
    const [secret] = (await this.bus.call(SECRETS, item.path, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', [this.session])) as [
      [string, Buffer, Buffer, string],
    ];
    return secret[2].toString('utf8');
  }

  async delete(item: SecretItem): Promise<void> {
    const [prompt] = await this.bus.call(SECRETS, item.path, 'org.freedesktop.Secret.Item', 'Delete', '', []);
    if (prompt !== '/') await this.#prompt(String(prompt));
  }

  close(): void {
    this.bus.close();
  }

  async #unlock(paths: string[]): Promise<string[]> {
    const [unlocked, prompt] = (await this.bus.call(SECRETS, SERVICE_PATH, 'org.freedesktop.Secret.Service', 'Unlock', 'ao', [paths])) as [
      string[],
      string,
    ];
    if (prompt === '/') return unlocked;
    const result = await this.#prompt(prompt);
    return Array.isArray(result) ? (result as string[]) : unlocked;
  }

  /** Shows a Secret Service prompt (unlock or confirm) and waits for the user's answer (at most 2 minutes). */
  async #prompt(path: string): Promise<Value> {
    const rule = `type='signal',interface='org.freedesktop.Secret.Prompt',member='Completed',path='${path}'`;
    await this.bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'AddMatch', 's', [rule]);
    const completed = this.bus.waitForSignal(path, 'Completed', 120_000);
    await this.bus.call(SECRETS, path, 'org.freedesktop.Secret.Prompt', 'Prompt', 's', ['']);
    const [dismissed, result] = await completed;
    if (dismissed) throw new Error('the keyring prompt was dismissed');
    return result;
  }
}
