export * from './csv';
export * from './csv.cases';
