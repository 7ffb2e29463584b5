// @coffer/messaging/mail: an entry point of its own, so that only the services that send mail load nodemailer.
export * from './mailer';
