/** The payout rail port and its built-in simulator (issue 4). */
export {};
