// Between the generated protobuf messages of @eventstore/db-client and the stand-in's log, in
// the shapes an EventStoreDB 23.10 server sends (metadata keys, positions on stream reads too).
import { randomUUID } from 'node:crypto';
import { Empty, StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { AppendReq, AppendResp, ReadResp } from '@eventstore/db-client/generated/streams_pb';
import { ExpectedRevision, NO_STREAM, ProposedEvent, StoredEvent } from './stand-in-log';

const JSON_CONTENT_TYPE = 'application/json';
const BINARY_CONTENT_TYPE = 'application/octet-stream';
const UUID_PATTERN = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A request the real server refuses with INVALID_ARGUMENT; `trailers` are what the client reads. */
export class InvalidRequest extends Error {
  constructor(
    message: string,
    readonly trailers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

const missingMetadata = (property: string): InvalidRequest =>
  new InvalidRequest(`required metadata property '${property}' is missing`, {
    exception: 'missing-required-metadata-property',
    'required-metadata-properties': property,
  });

export const streamNameOf = (identifier: StreamIdentifier | undefined): string =>
  Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');

const streamIdentifier = (streamName: string): StreamIdentifier =>
  new StreamIdentifier().setStreamName(Buffer.from(streamName, 'utf8'));

export function readAppendOptions(options: AppendReq.Options): {
  streamName: string;
  expected: ExpectedRevision;
} {
  const streamName = streamNameOf(options.getStreamIdentifier());
  if (streamName === '') throw new InvalidRequest('stream name is empty');
  const Case = AppendReq.Options.ExpectedStreamRevisionCase;
  switch (options.getExpectedStreamRevisionCase()) {
    case Case.ANY:
      return { streamName, expected: 'any' };
    case Case.NO_STREAM:
      return { streamName, expected: NO_STREAM };
    case Case.STREAM_EXISTS:
      return { streamName, expected: 'stream_exists' };
    case Case.REVISION:
      return { streamName, expected: Number(options.getRevision()) };
    default:
      throw new InvalidRequest('expected stream revision is missing');
  }
}

// EventStoreDB requires `type` and `content-type`, keeps only whether the content is JSON, and
// parses the id as a Guid (read back in lower case).
export function readProposedEvent(message: AppendReq.ProposedMessage): ProposedEvent {
  const metadata = message.getMetadataMap();
  const type = metadata.get('type');
  const contentType = metadata.get('content-type');
  if (type === undefined) throw missingMetadata('type');
  if (contentType === undefined) throw missingMetadata('content-type');
  const id = message.getId()?.getString() ?? '';
  if (!UUID_PATTERN.test(id)) throw new InvalidRequest(`event id '${id}' is not a UUID`);
  const hex = id.replace(/-/g, '').toLowerCase();
  return {
    id: [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-'),
    type,
    isJson: contentType === JSON_CONTENT_TYPE,
    data: Buffer.from(message.getData_asU8()),
    customMetadata: Buffer.from(message.getCustomMetadata_asU8()),
  };
}

export function appendSuccess(currentRevision: number, position: number | undefined): AppendResp {
  const success = new AppendResp.Success();
  if (currentRevision === NO_STREAM) success.setNoStream(new Empty());
  else success.setCurrentRevision(String(currentRevision));
  if (position === undefined) success.setNoPosition(new Empty());
  else
    success.setPosition(
      new AppendResp.Position().setCommitPosition(String(position)).setPreparePosition(String(position)),
    );
  return new AppendResp().setSuccess(success);
}

export function appendWrongExpectedVersion(currentRevision: number, expected: ExpectedRevision): AppendResp {
  const wrong = new AppendResp.WrongExpectedVersion();
  if (currentRevision === NO_STREAM) wrong.setCurrentNoStream(new Empty());
  else wrong.setCurrentRevision(String(currentRevision));
  if (expected === 'any') wrong.setExpectedAny(new Empty());
  else if (expected === 'stream_exists') wrong.setExpectedStreamExists(new Empty());
  else if (expected === NO_STREAM) wrong.setExpectedNoStream(new Empty());
  else wrong.setExpectedRevision(String(expected));
  return new AppendResp().setWrongExpectedVersion(wrong);
}

export function eventResponse(event: StoredEvent): ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent()
    .setId(new UUID().setString(event.id))
    .setStreamIdentifier(streamIdentifier(event.streamName))
    .setStreamRevision(String(event.revision))
    .setCommitPosition(String(event.position))
    .setPreparePosition(String(event.position))
    .setData(event.data)
    .setCustomMetadata(event.customMetadata);
  recorded
    .getMetadataMap()
    .set('type', event.type)
    .set('created', event.created)
    .set('content-type', event.isJson ? JSON_CONTENT_TYPE : BINARY_CONTENT_TYPE);
  return new ReadResp().setEvent(
    new ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(String(event.position)),
  );
}

export const confirmationResponse = (): ReadResp =>
  new ReadResp().setConfirmation(new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID()));

export const caughtUpResponse = (): ReadResp => new ReadResp().setCaughtUp(new ReadResp.CaughtUp());

export const checkpointResponse = (position: number): ReadResp =>
  new ReadResp().setCheckpoint(
    new ReadResp.Checkpoint().setCommitPosition(String(position)).setPreparePosition(String(position)),
  );

export const streamNotFoundResponse = (streamName: string): ReadResp =>
  new ReadResp().setStreamNotFound(
    new ReadResp.StreamNotFound().setStreamIdentifier(streamIdentifier(streamName)),
  );
