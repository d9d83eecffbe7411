import {
  AccountPricing,
  decideFloat,
  decideLedger,
  DEFAULT_PRICING,
  Environment,
  evolveFloat,
  evolveLedger,
  evolvePricing,
  FLOAT_EVENT_SCHEMA_VERSIONS,
  FLOAT_STREAM_TYPE,
  FloatCommand,
  floatStreamId,
  initialFloatState,
  initialLedgerState,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  LedgerCommand,
  LedgerState,
  parsePricing,
  PRICING_EVENT_SCHEMA_VERSIONS,
  PRICING_STREAM_TYPE,
  PricingEvent,
  PricingInput,
  pricingStreamId,
} from '@payouts/domain';
import { appendTo } from '@payouts/write-side';
import { CommittedPart, MemoryStreams } from './memory-streams';

/**
 * The commands on one ledger, one float or one account's pricing, decided and appended as their
 * handlers do (libs/payouts ledger-admin and float, libs/settlements): one append of one stream,
 * at the version read, through the domain's own deciders. A refusal throws the decider's
 * DomainError and writes nothing, as the API would answer it.
 */
export class FundsCommands {
  constructor(private readonly streams: MemoryStreams) {}

  /** SetLedgerLimits, CreditFunds, MatureProceeds, Start/CompleteSettlement, SetRetainedTarget. */
  onLedger(ledgerId: string, command: LedgerCommand, now: Date): number {
    const part = this.ledgerPart(ledgerId, command, now);
    this.streams.commit([part]);
    return part.append.events.length;
  }

  /** The ledger's part of a command that may span several streams (a paid order, a payout). */
  ledgerPart(ledgerId: string, command: LedgerCommand, now: Date): CommittedPart {
    const ledger = this.streams.load(ledgerId, initialLedgerState);
    const events = decideLedger(command, ledger.state, now);
    return {
      append: appendTo(ledgerId, LEDGER_STREAM_TYPE, ledger.version, events, LEDGER_EVENT_SCHEMA_VERSIONS),
      after: events.reduce(evolveLedger, ledger.state),
    };
  }

  ledger(ledgerId: string): LedgerState {
    return this.streams.load(ledgerId, initialLedgerState).state;
  }

  /** TopUpFloat alone; the float's part of a payout's transition otherwise. */
  onFloat(environment: Environment, command: FloatCommand, now: Date): void {
    this.streams.commit([this.floatPart(environment, command, now)]);
  }

  floatPart(environment: Environment, command: FloatCommand, now: Date): CommittedPart {
    const floatId = floatStreamId(environment);
    const float = this.streams.load(floatId, initialFloatState);
    const events = decideFloat(command, float.state, now);
    return {
      append: appendTo(floatId, FLOAT_STREAM_TYPE, float.version, events, FLOAT_EVENT_SCHEMA_VERSIONS),
      after: events.reduce(evolveFloat, float.state),
    };
  }

  /** SetPricingCommand: the operator's pricing, checked by parsePricing. */
  setPricing(accountId: string, environment: Environment, input: PricingInput, now: Date): void {
    const streamId = pricingStreamId(accountId, environment);
    const loaded = this.streams.load<AccountPricing>(streamId, () => DEFAULT_PRICING);
    const event: PricingEvent = {
      type: 'AccountPricingSet',
      data: { accountId, environment, pricing: parsePricing(input), at: now.toISOString() },
    };
    this.streams.commit([
      {
        append: appendTo(
          streamId,
          PRICING_STREAM_TYPE,
          loaded.version,
          [event],
          PRICING_EVENT_SCHEMA_VERSIONS,
        ),
        after: evolvePricing(loaded.state, event),
      },
    ]);
  }

  pricing(accountId: string, environment: Environment): AccountPricing {
    return this.streams.load<AccountPricing>(pricingStreamId(accountId, environment), () => DEFAULT_PRICING)
      .state;
  }
}
