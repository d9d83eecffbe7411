import type { OrderRecord, RefundRecord } from './store';

/** Text into HTML, attribute values included: every character that could end or open markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Corner Shop</title></head>
<body><main>
<p><a href="/">Corner Shop</a></p>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>`;
}

const alert = (error?: string) => (error ? `<p role="alert">${escapeHtml(error)}</p>` : '');

export function homePage(orders: OrderRecord[], error?: string): string {
  const rows = orders
    .map(
      (o) =>
        `<tr><td><a href="/orders/${o.id}">${o.id}</a></td><td>${escapeHtml(o.product)}</td>` +
        `<td>${escapeHtml(o.amount)} ${escapeHtml(o.currency)}</td><td>${escapeHtml(o.status)}</td></tr>`,
    )
    .join('\n');
  return layout(
    'Buy',
    `${alert(error)}
<form method="post" action="/orders">
<p><label for="product">Product</label> <input id="product" name="product" required></p>
<p><label for="amount">Amount (USD)</label> <input id="amount" name="amount" inputmode="decimal" required></p>
<p><label for="email">E-mail</label> <input id="email" name="email" type="email" required></p>
<p><button>Buy</button></p>
</form>
<h2>Orders</h2>
<table><thead><tr><th>Order</th><th>Product</th><th>Amount</th><th>Status</th></tr></thead>
<tbody>
${rows}
</tbody></table>`,
  );
}

export function orderPage(
  order: OrderRecord,
  refunds: RefundRecord[],
  refundable: string,
  error?: string,
): string {
  const rows = refunds
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.payout_id)}</td><td>${escapeHtml(r.amount)}</td>` +
        `<td data-status="${escapeHtml(r.status)}">${escapeHtml(r.status)}</td></tr>`,
    )
    .join('\n');
  const refundForm =
    order.status === 'paid' && refundable !== '0.00'
      ? `<form method="post" action="/orders/${order.id}/refunds">
<p><label for="amount">Refund amount (at most ${escapeHtml(refundable)})</label>
<input id="amount" name="amount" inputmode="decimal" required></p>
<p><button>Refund</button></p>
</form>`
      : '';
  return layout(
    `Order ${order.id}`,
    `${alert(error)}
<p>${escapeHtml(order.product)} for ${escapeHtml(order.customer)}:
${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</p>
<p>Status: <strong data-status="${escapeHtml(order.status)}">${escapeHtml(order.status)}</strong></p>
<h2>Refunds</h2>
<table><thead><tr><th>Payout</th><th>Amount</th><th>Status</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${refundForm}`,
  );
}

export function refundCreatedPage(order: OrderRecord, refund: RefundRecord, claimUrl: string): string {
  return layout(
    `Refund of ${refund.amount} ${order.currency}`,
    `<p>Send this link to ${escapeHtml(order.customer)}: it is how they receive the refund.</p>
<p><a id="claim-link" href="${escapeHtml(claimUrl)}">${escapeHtml(claimUrl)}</a></p>
<p><a href="/orders/${order.id}">Back to order ${order.id}</a></p>`,
  );
}

/** Where the checkout page sends the payer back. The order_id in the address proves nothing: the status shown is the shop's record. */
export function thanksPage(order: OrderRecord | undefined): string {
  if (!order) return layout('Thank you', '<p>We could not find that order.</p>');
  const said =
    order.status === 'paid'
      ? 'Your payment was received.'
      : 'We are waiting for the payment to be confirmed.';
  return layout(
    'Thank you',
    `<p>Order ${order.id}: ${escapeHtml(order.product)}. ${said}</p>
<p><a href="/orders/${order.id}">See the order</a></p>`,
  );
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<p>${escapeHtml(message)}</p>`);
}
