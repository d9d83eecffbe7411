/** Signed payout webhooks: signing, verifying, delivery (issue 5). */
export {};
