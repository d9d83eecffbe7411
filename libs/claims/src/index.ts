/** The recipient's claim: verification codes, page sessions, receiving details (issue 4). */
export {};
