import { Logger } from '@nestjs/common';
import { StreamVersionConflictError } from '@payouts/event-store';
import { OverloadedError } from '@payouts/http';
import { DomainError } from '@payouts/domain';
import { checkoutErrorPage } from './checkout-page.filter';

describe('the hosted checkout page when handling a payment fails', () => {
  // toApiError logs what it did not expect; that line is not this spec's subject.
  beforeAll(() => Logger.overrideLogger(false));

  it('says a payment that does not exist was not found, with 404', () => {
    expect(checkoutErrorPage(new DomainError('not_found', 'no such order'))).toMatchObject({
      status: 404,
      title: 'Payment not found',
    });
  });

  it('asks the payer to try again, with 503 and Retry-After, when the service is overloaded', () => {
    expect(checkoutErrorPage(new OverloadedError('commands'))).toEqual({
      status: 503,
      headers: { 'Retry-After': '1' },
      title: 'Please try again',
      message: expect.stringContaining('again in a minute'),
    });
  });

  it('asks the payer to try again, with 409, when another attempt changed the order at the same moment', () => {
    expect(checkoutErrorPage(new StreamVersionConflictError('order-1', 1, 2))).toMatchObject({
      status: 409,
      title: 'Please try again',
    });
  });

  it('answers anything unexpected with 500 and no detail of what failed', () => {
    const page = checkoutErrorPage(new Error('relation "checkout_orders" does not exist'));
    expect(page).toMatchObject({ status: 500, title: 'Something went wrong', headers: {} });
    expect(page.message).not.toContain('checkout_orders');
  });
});
