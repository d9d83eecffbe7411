/** E-mail: SMTP via nodemailer, or a mailbox folder when SMTP_URL is unset (issue 4). */
export * from './mailer';
export * from './smtp-mailer';
export * from './mailbox-folder-mailer';
export * from './mail.module';
