import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';

/**
 * The baseline for `bench:api`: a bare Fastify server that takes the same requests as the
 * gateway (JSON body parsed, a JSON answer of the same shape) and does nothing else. What the
 * gateway costs on top of this is authentication, validation, idempotency, the event store and
 * the read models.
 */
const port = Number(process.argv[2] ?? 0);
const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });

app.post('/sandbox/api/payout/create', async (request, reply) => {
  const body = request.body as { amount: string; merchant_reference: string };
  void reply.status(201);
  return {
    payout_id: `po_${randomBytes(12).toString('hex')}`,
    status: 'awaiting_choice',
    status_version: 1,
    amount: body.amount,
    fee: '0.50',
    total_reserved: body.amount,
    currency: 'USD',
    funds_released: false,
    payout_url: `http://localhost/claim/${randomBytes(32).toString('base64url')}`,
    access_link_expires_at: new Date().toISOString(),
    payout_expires_at: new Date().toISOString(),
  };
});

app.get('/sandbox/api/payout/:id', async (request) => ({
  payout_id: (request.params as { id: string }).id,
  status: 'awaiting_choice',
  status_version: 1,
  amount: '10.00',
  fee: '0.50',
  total_reserved: '10.50',
  currency: 'USD',
  funds_released: false,
  merchant_reference: 'ref',
  customer_id: null,
  delivery: 'link',
  source: 'api',
  case_reference: null,
  selected_method: null,
  safe_reason: null,
  receipt_reference: null,
  created_at: new Date().toISOString(),
  accepted_at: null,
  payout_expires_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
}));

// bench:checkout's baselines: Create Order and Get Payment Status, answers of the same shape.
let nextOrderId = 1;
app.post('/sandbox/card', async (request) => {
  const body = request.body as { amount: number };
  const orderId = (nextOrderId += 1);
  return {
    order_url: `http://localhost/checkout/${randomBytes(32).toString('base64url')}`,
    order_id: orderId,
    amount: body.amount.toFixed(2),
  };
});

app.get('/sandbox/payment/status', async (request) => {
  const id = Number((request.query as { payment_id?: string }).payment_id);
  return {
    status: 'PENDING',
    data: {
      id,
      Amount: 10.5,
      currency: 'USD',
      customer: 'payer@example.com',
      product: 'Bench product',
      hook_url: null,
      status: 'PENDING',
      method: 'card',
      created_at: new Date().toISOString(),
      paid_at: null,
      expires_at: new Date().toISOString(),
    },
  };
});

app.listen({ port, host: '127.0.0.1' }).then((address) => process.stdout.write(`listening ${address}\n`));
