import { Injectable } from '@nestjs/common';
import { KeyedMutex } from './keyed-mutex';

/** One per process: commands that touch a ledger take its key first. */
@Injectable()
export class LedgerLocks extends KeyedMutex {}
