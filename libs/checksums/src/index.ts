export * from './checksums';
