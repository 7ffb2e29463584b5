// @coffer/mail: a library of its own, so that only the services that send mail load nodemailer.
export * from './mailer';
