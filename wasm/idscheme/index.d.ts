// index.d.ts: the types of the npm package idscheme (wasm/idscheme/
// idscheme.js), for its ESM entry points; build.sh copies it to
// index.d.cts for require().

/** What the library's errors carry: the message as the C library words
 *  it (naming the argument and quoting the input), and the code. */
export type IdschemeErrorCode =
  | "EINVAL" | "ERANGE" | "ECLOCK" | "EFORK" | "ENOENT" | "EEXIST"
  | "ENOMEM" | "ELEASE" | "ETIME" | "EINTR";

export declare class IdschemeError extends Error {
  constructor(message: string, code?: IdschemeErrorCode);
  readonly name: "IdschemeError";
  /** IDS_EINVAL is "EINVAL", and so on */
  readonly code: IdschemeErrorCode;
}

/** A field's value: a number for fields of up to 53 bits, a BigInt for
 *  wider ones (by width, never by magnitude), a qualifier's name (SIQ's
 *  type) as a string. */
export type FieldValue = number | bigint | string;
/** What compose takes for a field: an integer (number or BigInt), a
 *  qualifier's or a hashed name (SIQ's domain_name), or a wide field's
 *  big-endian bytes. */
export type FieldInput = number | bigint | string | Uint8Array;

export type FieldKind =
  | "time" | "node" | "sequence" | "random" | "hash" | "constant" | "qualifier"
  | "instance" | "counter" | "version";

/** One field of a layout, as define takes it and more. */
export interface FieldInfo {
  readonly name: string;
  readonly kind: FieldKind | string;
  /** width of the value it holds (the widest, for a variable field) */
  readonly bits: number;
  /** its lowest run's lowest bit, from the least significant (0) */
  readonly shift: number;
  /** its runs of bits, most significant first (one, unless split around
   *  other fields as UUIDv1's time) */
  readonly parts: ReadonlyArray<{ readonly shift: number; readonly bits: number }>;
  /** a constant's value */
  readonly value?: number | bigint;
  /** the time field's unit ("ms", "10ms", "1/10000000 s") and epoch (Unix
   *  ms), where the scheme has one time field */
  readonly unit?: string;
  readonly epoch?: number;
  /** its width varies with the value (SIQ's serial and qualifier) */
  readonly variable?: true;
  /** the string option or key hashed into it (SIQ's "domain_name") */
  readonly from?: string;
  /** a qualifier field's names (SIQ's types) */
  readonly qualifiers?: readonly string[];
  /** and their values */
  readonly qualifierValues?: Readonly<Record<string, number>>;
}

/** A run of bits of one field: what a bit diagram draws. */
export interface LayoutRun {
  readonly field: string;
  /** the field's index in layout.fields */
  readonly index: number;
  readonly kind: string;
  /** its first bit counted from the most significant (0), as
   *  `idscheme info` numbers them */
  readonly offset: number;
  /** its lowest bit counted from the least significant (0) */
  readonly shift: number;
  readonly bits: number;
  /** which run of its field (0 the most significant), of how many */
  readonly part: number;
  readonly parts: number;
  readonly variable?: true;
}

export interface Layout {
  readonly bits: number;
  readonly bytes: number;
  /** most significant first */
  readonly fields: readonly FieldInfo[];
  /** every run, most significant first */
  readonly runs: readonly LayoutRun[];
}

/** An ID given to a method: an Id of that scheme, or its text. */
export type IdLike = Id | string;

/** A scheme: a bit layout plus text codecs, from the registry. */
export declare class Scheme {
  private constructor();
  readonly name: string;
  readonly bits: number;
  /** the width of its bytes */
  readonly bytes: number;
  /** default first */
  readonly encodings: readonly string[];
  readonly defaultEncoding: string;
  /** a generator's IDs increase as values */
  readonly ordered: boolean;
  /** the format's name for people ("Discord's Snowflake"), or null */
  readonly title: string | null;
  /** what a reading without time says ("random data only"), or null */
  readonly note: string | null;
  /** Unix ms of the format's first IDs, or null */
  readonly since: number | null;
  /** names it also answers to ("discord") */
  readonly aliases: readonly string[];
  /** a random format's other sizes [min, max] (nanoid), or null */
  readonly lengths: readonly [number, number] | null;
  readonly layout: Layout;
  /** what generator() takes: the scheme's own options, then every
   *  generator's */
  readonly options: readonly string[];
  /** what scheme(name, params) takes */
  readonly params: readonly string[];
  /** it has a time */
  readonly timed: boolean;
  /** its time field's unit and epoch, or null */
  readonly unit: string | null;
  readonly epoch: number | null;

  /** text as an ID (in encoding, or by the scheme's detection or
   *  default); throws an IdschemeError quoting the text */
  decode(text: string, encoding?: string): Id;
  valid(text: string, encoding?: string): boolean;
  /** the ID of these big-endian bytes */
  fromBytes(bytes: Uint8Array): Id;
  /** the ID of this value */
  fromInteger(x: bigint | number | string): Id;
  /** value's text in encoding (default: the scheme's default) */
  encode(value: IdLike, encoding?: string): string;
  /** value's fields: name -> number, BigInt or a qualifier's name */
  fields(value: IdLike, encoding?: string): Record<string, FieldValue>;
  /** value's time, or null if it has none */
  time(value: IdLike, encoding?: string): Date | null;
  /** the same in Unix ms (floored), or null */
  timeMs(value: IdLike, encoding?: string): number | null;
  /** the ID of these fields; constants may be left out */
  compose(fields: Record<string, FieldInput>): Id;
  /** a generator; options by name (node fields must be given) */
  generator(options?: Record<string, number | bigint | string>): Generator;
  /** inspect(text, { ...options, scheme: this }) */
  inspect(text: string, options?: { encoding?: string }): InspectResult;
  /** its name */
  toString(): string;
  toJSON(): string;
}

/** One ID: its value, with its text forms, fields and time. */
export declare class Id {
  private constructor();
  readonly scheme: Scheme;
  /** its big-endian bytes (a copy) */
  readonly bytes: Uint8Array;
  readonly hex: string;
  encode(encoding?: string): string;
  fields(): Record<string, FieldValue>;
  time(): Date | null;
  timeMs(): number | null;
  /** ns since 1970 to the scheme's finest unit, or null */
  timeNs(): bigint | null;
  toBigInt(): bigint;
  equals(other: unknown): boolean;
  /** -1, 0 or 1 */
  compare(other: Id): number;
  /** its default encoding */
  toString(): string;
  toJSON(): string;
}

export declare class Generator {
  private constructor();
  readonly scheme: Scheme;
  readonly closed: boolean;
  /** the next ID's text */
  next(encoding?: string): string;
  /** the next ID (qualifier: SIQ's type for this one) */
  nextId(qualifier?: string): Id;
  /** the next n IDs' texts */
  nextN(n: number, encoding?: string): string[];
  /** an ID whose time is unixMs (a backfill's, a test's, a range key's) */
  nextAt(unixMs: number | Date, encoding?: string): string;
  nextIdAt(unixMs: number | Date): Id;
  /** frees it (also [Symbol.dispose], where the runtime has it: not
   *  declared here, for TypeScript before 5.2) */
  close(): void;
}

/** One reading of a text (inspect.h's ids_candidate). */
export interface Candidate {
  readonly scheme: string;
  readonly encoding: string;
  /** the value's hex, or null for a text read by its alphabet alone */
  readonly value: string | null;
  readonly fields: Record<string, FieldValue> | null;
  readonly time: Date | null;
  readonly ms: number | null;
  /** the format at another size (nanoid(10)): its characters */
  readonly length: number | null;
  /** bits of evidence that it is this scheme's writing */
  readonly evidence: number;
  readonly marks: number;
  readonly rank: number;
  readonly constbits: number;
  readonly marked: boolean;
  readonly plausible: boolean;
  readonly confirmed: boolean;
  readonly unique: boolean;
  readonly ambiguous: boolean;
  readonly refused: boolean;
  readonly weak: boolean;
  /** what weighs against it ("time after now"), or null */
  readonly note: string | null;
  /** ids_inspect_why's words where it is refused, weak or noted */
  readonly why: string | null;
  /** the value's bytes, and every text form of it (null without one) */
  readonly bytes: Uint8Array | null;
  readonly encodings: Record<string, string> | null;
  /** every member, what is made when read included */
  toJSON(): object;
}

export type Verdict = "named" | "weak" | "ambiguous" | "refused" | "unknown";

export interface InspectResult {
  /** the text as read (blanks at both ends trimmed) */
  readonly input: string;
  /** named: the best reading stands; weak: a guess; ambiguous: another
   *  scheme reads it as well; refused: none stands; unknown: none
   *  decodes it */
  readonly verdict: Verdict;
  /** the best reading's, where one stands (not refused or unknown) */
  readonly scheme: string | null;
  readonly encoding: string | null;
  readonly title: string | null;
  readonly note: string | null;
  /** the best reading's note */
  readonly doubt: string | null;
  /** why it is a guess, refused or unknown; "" when sure */
  readonly why: string;
  readonly time: Date | null;
  readonly ms: number | null;
  readonly fields: Record<string, FieldValue> | null;
  readonly value: string | null;
  /** every text form of the value */
  readonly encodings: Record<string, string> | null;
  readonly length: number | null;
  readonly plausible: boolean;
  readonly ambiguous: boolean;
  readonly weak: boolean;
  readonly evidence: number | null;
  /** the other schemes that read it as well */
  readonly ambiguousWith: readonly string[];
  /** every reading, best first */
  readonly candidates: readonly Candidate[];
  toJSON(): object;
}

export interface InspectOptions {
  /** that scheme alone (its reading stands, as the command's -s) */
  scheme?: string | Scheme;
  /** that encoding only */
  encoding?: string;
}

/** The scheme's spec, as Lua's idscheme.define takes it. */
export interface FieldSpec {
  name: string;
  kind: string;
  bits: number;
  unit?: string;
  epoch?: number;
  value?: number | bigint;
  order?: "high first" | "low first";
}
export interface SchemeSpec {
  name: string;
  fields: FieldSpec[];
  encodings?: string[];
  default_encoding?: string;
  bytes?: number;
  about?: {
    title?: string;
    note?: string;
    since?: number;
    aliases?: string[];
    lengths?: [number, number];
  };
}

/** What init and initSync take: the module's bytes (an ArrayBuffer or a
 *  typed array), a compiled WebAssembly.Module, a Response or its
 *  promise, or a URL (a string or a URL object) to fetch.  Typed loosely,
 *  with ES types alone, so that neither the DOM's types nor node's are
 *  needed to use the package. */
export type WasmSource = ArrayBuffer | ArrayBufferView | string | object | PromiseLike<object>;

/** Loads the WebAssembly (node: done at import; browsers: fetched from
 *  beside browser.js unless given). */
export declare function init(source?: WasmSource): Promise<void>;
/** The same from a module or its bytes, at once. */
export declare function initSync(source?: ArrayBuffer | ArrayBufferView | object): void;
export declare function loaded(): boolean;
/** the library's version */
export declare function version(): string;
/** every scheme's name, sorted */
export declare function list(): string[];
/** every scheme (default parameters), sorted by name */
export declare function schemes(): Scheme[];
/** a scheme by name or alias, with parameters or its defaults */
export declare function scheme(name: string | Scheme, params?: Record<string, number | bigint | string>): Scheme;
export declare function define(spec: SchemeSpec): Scheme;
export declare function inspect(text: string, options?: InspectOptions): InspectResult;
/** inspect(text, options).verdict alone, with nothing of the readings made:
 *  for counting the verdicts of many texts.  The same options and errors. */
export declare function verdict(text: string, options?: InspectOptions): Verdict;
