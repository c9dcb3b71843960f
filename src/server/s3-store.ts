// The S3 backend of the store (see store.ts for what every backend guarantees): any number of
// stateless `flameview serve` replicas share one bucket and prefix; nothing is kept on local disk.
//
// Keys under s3://BUCKET/PREFIX/:
//   recordings/<id>   the bytes as uploaded; user metadata `name` (percent-encoded: metadata is
//                     ASCII) and `date` (ISO 8601, to the millisecond; listing and eviction use
//                     LastModified, to the second, to save a HEAD per recording)
//   incoming/<t>-<r>  an upload in progress: a multipart upload (lib-storage, PART_SIZE parts, at
//                     most QUEUE_SIZE in flight), then a complete object for as long as the copy
//                     to recordings/<id> takes
//   secret            the key delete tokens are signed with, shared by the replicas
//
// Invariants:
// - recordings/<id> is only ever written by CopyObject of a complete temporary object whose
//   sha256 is <id>, so a reader never sees a partial recording; a failed, refused or cut-off
//   upload aborts its multipart upload and deletes its temporary object.
// - An upload holds at most (QUEUE_SIZE + 1) × PART_SIZE of its bytes in memory.
// - Leftovers of a replica that died (temporary objects, multipart uploads) are removed by the
//   next replica that starts once they are old enough not to belong to a live upload.

import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { isValidId } from './security';
import { IdLocks, StoreUnavailable, UploadMeter, receive } from './store';
import type { ByteRange, PutOptions, PutResult, RecordingInfo, RecordingStore, StoredEntry } from './store';

/**
 * S3's smallest part: larger parts cost the server memory and gained no time (bench/README.md).
 */
export const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** CopyObject copies at most 5 GiB in one request. */
export const MAX_S3_RECORDING = 5 * 1024 ** 3;
/** A temporary object lives seconds; one this old belongs to no live upload. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** A multipart upload this old belongs to no live upload (a slow 1 GiB upload takes hours at worst). */
const STALE_MULTIPART_MS = 24 * 60 * 60 * 1000;

export interface S3Location {
  bucket: string;
  /** '' or ending with '/'. */
  prefix: string;
}

/** s3://BUCKET[/PREFIX] → bucket and prefix; throws a one-line Error for anything else. */
export function parseS3Url(url: string): S3Location {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new Error(`${url}: expected s3://BUCKET/PREFIX with a valid bucket name`);
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '.' || part === '..')) throw new Error(`${url}: the prefix may not contain . or ..`);
  return { bucket: m[1], prefix: prefix ? `${prefix}/` : '' };
}

/**
 * The client for `--s3-endpoint` (path-style addressing, as S3-compatible servers expect) or for
 * AWS itself; region and credentials come from the SDK's usual sources (AWS_REGION,
 * AWS_ACCESS_KEY_ID, AWS_PROFILE, instance roles, …).
 */
export function s3Client(endpoint?: string): S3Client {
  // The SDK warns on every start that its future versions need a newer Node; nothing to act on.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const config: S3ClientConfig = {};
  if (endpoint) {
    config.endpoint = endpoint;
    config.forcePathStyle = true;
    if (!process.env.AWS_REGION && !process.env.AWS_DEFAULT_REGION) config.region = 'us-east-1';
  }
  // Checksums only where S3 requires them: S3-compatible servers that predate the SDK's default
  // CRC trailers (aws-chunked bodies) would store the trailers as data.
  if (!process.env.AWS_REQUEST_CHECKSUM_CALCULATION) config.requestChecksumCalculation = 'WHEN_REQUIRED';
  if (!process.env.AWS_RESPONSE_CHECKSUM_VALIDATION) config.responseChecksumValidation = 'WHEN_REQUIRED';
  return new S3Client(config);
}

export class S3Store implements RecordingStore {
  private readonly locks = new IdLocks();
  readonly location: string;

  private constructor(
    private readonly client: S3Client,
    private readonly where: S3Location,
  ) {
    this.location = `s3://${where.bucket}/${where.prefix}`;
  }

  /** Checks that the bucket answers, and removes what dead replicas left behind. */
  static async open(where: S3Location, endpoint?: string, client = s3Client(endpoint)): Promise<S3Store> {
    try {
      await client.send(new HeadBucketCommand({ Bucket: where.bucket }));
    } catch (e) {
      client.destroy();
      throw new Error(`cannot use bucket ${where.bucket}${endpoint ? ` at ${endpoint}` : ''}: ${describeS3Error(e)}`);
    }
    const store = new S3Store(client, where);
    await store.removeLeftovers(Date.now());
    return store;
  }

  private key(id: string): string {
    if (!isValidId(id)) throw new Error(`invalid recording id ${JSON.stringify(id)}`);
    return `${this.where.prefix}recordings/${id}`;
  }

  private async removeLeftovers(now: number): Promise<void> {
    const Prefix = `${this.where.prefix}incoming/`;
    for await (const object of this.listKeys(Prefix)) {
      if (now - object.date.getTime() > STALE_TEMP_MS) await this.deleteKey(object.key);
    }
    try {
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        const page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.where.bucket, Prefix, KeyMarker, UploadIdMarker }));
        for (const upload of page.Uploads ?? []) {
          if (upload.Key && upload.UploadId && upload.Initiated && now - upload.Initiated.getTime() > STALE_MULTIPART_MS) {
            await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.where.bucket, Key: upload.Key, UploadId: upload.UploadId }));
          }
        }
        ({ NextKeyMarker: KeyMarker, NextUploadIdMarker: UploadIdMarker } = page);
        if (!page.IsTruncated) break;
      } while (KeyMarker);
    } catch (e) {
      // Some S3-compatible servers cannot list multipart uploads; a bucket lifecycle rule
      // (AbortIncompleteMultipartUpload) does the same job there (README).
      if (status(e) !== 501) throw e;
    }
  }

  async put(body: Readable, options: PutOptions): Promise<PutResult> {
    return this.reachable(() => this.putOnce(body, options));
  }

  private async putOnce(body: Readable, options: PutOptions): Promise<PutResult> {
    const tempKey = `${this.where.prefix}incoming/${Date.now()}-${randomBytes(12).toString('hex')}`;
    const meter = new UploadMeter(options);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.where.bucket, Key: tempKey, Body: meter, ContentType: 'application/octet-stream' },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    let threw = false;
    try {
      const failed = await receive(body, meter, upload.done());
      if (failed) return failed;
      const id = meter.id;
      const fresh: RecordingInfo = { id, name: options.name, size: meter.received, date: new Date().toISOString() };
      return await this.locks.run(id, async () => {
        const existing = await this.head(id);
        if (existing) return { kind: 'stored', info: existing, created: false } as const;
        await this.client.send(
          new CopyObjectCommand({
            Bucket: this.where.bucket,
            Key: this.key(id),
            CopySource: `${this.where.bucket}/${tempKey.split('/').map(encodeURIComponent).join('/')}`,
            MetadataDirective: 'REPLACE',
            Metadata: { name: encodeURIComponent(options.name), date: fresh.date },
            ContentType: 'application/octet-stream',
          }),
        );
        return { kind: 'stored', info: (await this.head(id)) ?? fresh, created: true } as const;
      });
    } catch (e) {
      threw = true;
      throw e;
    } finally {
      const removed = this.deleteKey(tempKey).catch(() => undefined);
      // A store that failed mid-upload may be down, and the SDK's retries of this delete would hold
      // the client's answer (meanwhile the rest of its body is read and dropped): answer first.
      if (!threw) await removed;
    }
  }

  async info(id: string): Promise<RecordingInfo | null> {
    if (!isValidId(id)) return null;
    return this.reachable(() => this.head(id));
  }

  private async head(id: string): Promise<RecordingInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.where.bucket, Key: this.key(id) }));
      const date = head.Metadata?.date && !Number.isNaN(Date.parse(head.Metadata.date)) ? head.Metadata.date : (head.LastModified ?? new Date()).toISOString();
      return { id, name: decodeName(head.Metadata?.name), size: head.ContentLength ?? 0, date };
    } catch (e) {
      if (status(e) === 404) return null;
      throw e;
    }
  }

  async open(id: string, range?: ByteRange): Promise<Readable | null> {
    if (!isValidId(id)) return null;
    return this.reachable(() => this.get(id, range));
  }

  private async get(id: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: this.where.bucket, Key: this.key(id), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return got.Body as Readable;
    } catch (e) {
      if (status(e) === 404) return null;
      throw e;
    }
  }

  async entries(): Promise<StoredEntry[]> {
    return this.reachable(() => this.list());
  }

  private async list(): Promise<StoredEntry[]> {
    const out: StoredEntry[] = [];
    const prefix = `${this.where.prefix}recordings/`;
    for await (const object of this.listKeys(prefix)) {
      const id = object.key.slice(prefix.length);
      if (isValidId(id)) out.push({ id, size: object.size, date: object.date.toISOString() });
    }
    return out;
  }

  async delete(id: string): Promise<boolean> {
    if (!isValidId(id)) return false;
    return this.reachable(() =>
      this.locks.run(id, async () => {
        if (!(await this.head(id))) return false;
        await this.deleteKey(this.key(id));
        return true;
      }),
    );
  }

  /** Runs `task`, turning "the object store did not answer" (or answered 5xx) into StoreUnavailable. */
  private async reachable<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (e) {
      throw unreachable(e) ? new StoreUnavailable(this.location, e) : e;
    }
  }

  async secret(): Promise<Buffer> {
    const Key = `${this.where.prefix}secret`;
    const read = async (): Promise<Buffer | null> => {
      try {
        const got = await this.client.send(new GetObjectCommand({ Bucket: this.where.bucket, Key }));
        const text = (await got.Body!.transformToString('utf8')).trim();
        return text ? Buffer.from(text, 'utf8') : null;
      } catch (e) {
        if (status(e) === 404) return null;
        throw e;
      }
    };
    const existing = await read();
    if (existing) return existing;
    // The first replica to start makes it; IfNoneMatch keeps a second one from replacing it on
    // S3 itself, and reading it back makes both use the same.
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.where.bucket, Key, Body: randomBytes(32).toString('hex'), IfNoneMatch: '*' }));
    } catch (e) {
      if (status(e) !== 412) throw e;
    }
    const made = await read();
    if (!made) throw new Error(`could not keep the server secret at ${this.location}secret`);
    return made;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async *listKeys(Prefix: string): AsyncGenerator<{ key: string; size: number; date: Date }> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.where.bucket, Prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, size: object.Size ?? 0, date: object.LastModified ?? new Date(0) };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  private async deleteKey(Key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.where.bucket, Key }));
  }
}

function decodeName(raw: string | undefined): string {
  if (!raw) return '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** No HTTP answer at all (refused, reset, timed out), or a 5xx: the store is down, not the request wrong. */
function unreachable(e: unknown): boolean {
  if (e instanceof StoreUnavailable) return false;
  const code = status(e);
  if (code !== undefined) return code >= 500;
  const { code: errno, name } = e as { code?: unknown; name?: unknown };
  return (typeof errno === 'string' && /^E[A-Z]+$/.test(errno)) || name === 'TimeoutError';
}

function status(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function describeS3Error(e: unknown): string {
  const err = e as Error & { code?: string; Code?: string };
  const code = status(e);
  if (code === 404) return 'no such bucket';
  if (code === 403) return 'access denied (check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)';
  if (code === 301) return 'the bucket is in another region (set AWS_REGION)';
  return `${err.code ?? err.Code ?? err.name}: ${err.message.split('\n')[0]}`;
}
