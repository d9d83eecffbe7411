// What the real client's high-level API cannot show, checked with the gRPC clients generated in
// @eventstore/db-client: the services left unimplemented (and the client's fallback), refusals
// of malformed requests, the filter in read mode, and the raw metadata of a recorded event.
import { credentials, type ServiceError, status } from '@grpc/grpc-js';
import {
  convertToCommandError,
  type EventStoreDBClient,
  RequiredMetadataPropertyMissingError,
} from '@eventstore/db-client';
import { ServerFeaturesClient } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { Empty, StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { StreamsClient } from '@eventstore/db-client/generated/streams_grpc_pb';
import {
  AppendReq,
  AppendResp,
  BatchAppendResp,
  ReadReq,
  ReadResp,
} from '@eventstore/db-client/generated/streams_pb';
import { startStandIn, type StandIn } from './stand-in-server';
import { clientOf, event, gather } from './testing/stand-in-client';

const identifier = (streamName: string) => new StreamIdentifier().setStreamName(Buffer.from(streamName));

const proposed = (type: string | undefined, id = '0b6cbd0e-6a36-4a0f-9a42-8a0c3f0b6a01') => {
  const message = new AppendReq.ProposedMessage().setId(new UUID().setString(id)).setData(Buffer.from('{}'));
  if (type !== undefined) message.getMetadataMap().set('type', type);
  message.getMetadataMap().set('content-type', 'application/json');
  return new AppendReq().setProposedMessage(message);
};

const optionsFor = (streamName: string) =>
  new AppendReq().setOptions(
    new AppendReq.Options().setStreamIdentifier(identifier(streamName)).setAny(new Empty()),
  );

describe('EventStoreDB stand-in: protocol details', () => {
  let standIn: StandIn;
  let client: EventStoreDBClient;
  let streams: StreamsClient;
  const address = () => `127.0.0.1:${standIn.port}`;

  beforeAll(async () => {
    standIn = await startStandIn();
    client = clientOf(standIn);
    streams = new StreamsClient(address(), credentials.createInsecure());
  });

  afterAll(async () => {
    streams.close();
    await client.dispose();
    await standIn.stop();
  });

  const rawAppend = (requests: AppendReq[]): Promise<AppendResp> =>
    new Promise((resolve, reject) => {
      const call = streams.append((error, response) => (error ? reject(error) : resolve(response)));
      requests.forEach((request) => call.write(request));
      call.end();
    });

  const rawRead = (options: ReadReq.Options): Promise<ReadResp[]> =>
    new Promise((resolve, reject) => {
      const responses: ReadResp[] = [];
      const call = streams.read(new ReadReq().setOptions(options));
      call.on('data', (response: ReadResp) => responses.push(response));
      call.on('end', () => resolve(responses));
      call.on('error', reject);
    });

  const allOptions = () =>
    new ReadReq.Options()
      .setAll(new ReadReq.Options.AllOptions().setStart(new Empty()))
      .setReadDirection(ReadReq.Options.ReadDirection.FORWARDS)
      .setCount('100')
      .setUuidOption(new ReadReq.Options.UUIDOption().setString(new Empty()));

  describe('ServerFeatures and BatchAppend are left unimplemented, so the client appends with Append', () => {
    it('answers ServerFeatures.GetSupportedMethods with UNIMPLEMENTED', async () => {
      const features = new ServerFeaturesClient(address(), credentials.createInsecure());
      const error = await new Promise<ServiceError | null>((resolve) =>
        features.getSupportedMethods(new Empty(), (e) => resolve(e)),
      );
      features.close();
      expect(error?.code).toBe(status.UNIMPLEMENTED);
    });

    it('answers Streams.BatchAppend with UNIMPLEMENTED, yet the real client appends', async () => {
      const call = streams.batchAppend();
      const error = await new Promise<ServiceError>((resolve) => {
        call.on('data', (_: BatchAppendResp) => undefined);
        call.on('error', resolve);
      });
      expect(error.code).toBe(status.UNIMPLEMENTED);

      const result = await client.appendToStream('fallback', event('ThroughAppend'));
      expect(result.success).toBe(true);
      expect(standIn.eventCount()).toBe(1);
    });
  });

  describe('refusals, which write nothing', () => {
    let countBefore: number;
    beforeEach(() => (countBefore = standIn.eventCount()));
    afterEach(() => expect(standIn.eventCount()).toBe(countBefore));

    it('refuses an event without a type as EventStoreDB does (RequiredMetadataPropertyMissingError)', async () => {
      const error = (await rawAppend([optionsFor('refused'), proposed(undefined)]).catch(
        (e: unknown) => e,
      )) as ServiceError;
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      const converted = convertToCommandError(error);
      expect(converted).toBeInstanceOf(RequiredMetadataPropertyMissingError);
      expect((converted as RequiredMetadataPropertyMissingError).requiredMetadataProperties).toEqual([
        'type',
      ]);
    });

    it('refuses events sent before the options, and options sent twice', async () => {
      await expect(rawAppend([proposed('A'), optionsFor('refused')])).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
      });
      await expect(rawAppend([optionsFor('refused'), optionsFor('refused')])).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
      });
    });

    it('refuses a read without options and a filter regex that does not compile', async () => {
      const noOptions = new Promise((resolve, reject) => {
        const call = streams.read(new ReadReq());
        call
          .on('data', () => undefined)
          .on('end', resolve)
          .on('error', reject);
      });
      await expect(noOptions).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
      const badRegex = allOptions().setFilter(
        new ReadReq.Options.FilterOptions()
          .setEventType(new ReadReq.Options.FilterOptions.Expression().setRegex('('))
          .setCount(new Empty())
          .setCheckpointintervalmultiplier(1),
      );
      await expect(rawRead(badRegex)).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    });
  });

  it('applies the filter to a read of $all too (the client only sends one when subscribing)', async () => {
    await client.appendToStream('payout-9', [event('PayoutCreated'), event('PayoutPaid')]);
    await client.appendToStream('ledger-9', event('FundsReserved'));
    const byPrefix = allOptions().setFilter(
      new ReadReq.Options.FilterOptions()
        .setStreamIdentifier(
          new ReadReq.Options.FilterOptions.Expression().setPrefixList(['payout-', 'none-']),
        )
        .setCount(new Empty())
        .setCheckpointintervalmultiplier(1),
    );
    const types = (await rawRead(byPrefix)).map((r) =>
      r.getEvent()?.getEvent()?.getMetadataMap().get('type'),
    );
    expect(types).toEqual(['PayoutCreated', 'PayoutPaid']);

    const byRegex = allOptions()
      .setCount('1')
      .setFilter(
        new ReadReq.Options.FilterOptions()
          .setEventType(new ReadReq.Options.FilterOptions.Expression().setRegex('Paid|Reserved'))
          .setMax(1)
          .setCheckpointintervalmultiplier(1),
      );
    expect(
      (await rawRead(byRegex)).map((r) => r.getEvent()?.getEvent()?.getMetadataMap().get('type')),
    ).toEqual(['PayoutPaid']);
  });

  it('sends created as 100 ns ticks since the Unix epoch, with type and content-type, as the server does', async () => {
    const before = BigInt(Date.now()) * 10_000n;
    await client.appendToStream('ticks', event('Ticked'));
    const after = BigInt(Date.now() + 1) * 10_000n;
    const [response] = await rawRead(
      new ReadReq.Options()
        .setStream(
          new ReadReq.Options.StreamOptions().setStreamIdentifier(identifier('ticks')).setStart(new Empty()),
        )
        .setCount('1')
        .setNoFilter(new Empty())
        .setUuidOption(new ReadReq.Options.UUIDOption().setString(new Empty())),
    );
    const recorded = response?.getEvent()?.getEvent();
    const metadata = Object.fromEntries(recorded?.getMetadataMap().getEntryList() ?? []);
    expect(Object.keys(metadata).sort()).toEqual(['content-type', 'created', 'type']);
    expect(metadata).toMatchObject({ type: 'Ticked', 'content-type': 'application/json' });
    const created = BigInt(metadata.created as string);
    expect(created >= before && created <= after).toBe(true);
    expect(recorded?.getCommitPosition()).toBe(recorded?.getPreparePosition());
    expect((await gather(client.readStream('ticks')))[0]?.event?.created.getTime()).toBe(
      Number(created / 10_000n),
    );
  });
});
