import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { isContractClass, validateContract } from '@coffer/contracts';

/**
 * Validation at the edge (global pipe): a route whose `@Body()` is typed with a contract class of libs/contracts gets
 * the body validated and transformed by that class before any service is called — unknown members dropped, every
 * bad field reported by path in a 400 problem, by the same `validateContract` (and so with the same messages and
 * paths) the owning service applies. Bodies typed `unknown` (token payloads, merge patches, routes whose service must
 * answer 403/404 before judging the body) pass through untouched; an absent body is `{}`, as those routes took it.
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || !isContractClass(metadata.metatype)) return value;
    return validateContract(metadata.metatype, value ?? {}, undefined, { whitelist: true });
  }
}
