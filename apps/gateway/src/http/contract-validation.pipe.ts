import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { isContractClass, validateContract, type ContractStatics } from '@coffer/contracts';

/**
 * Validation at the edge (global pipe): every route's `@Body()` is typed with a contract class of libs/contracts, and
 * the body is validated and transformed by that class before any service is called — members the class does not
 * declare dropped, every bad field reported by path in a 400 problem, by the same `validateContract` (and so with the
 * same messages and paths) the owning service applies to what reaches it from elsewhere. A class with a
 * `documentField` (tokenize, detokenize) takes the whole body, any JSON, as that member. An absent body is `{}`.
 *
 * Pipes run after the guards: a key without the route's permission gets its 403 before its body is judged, as
 * do the checks that need no body (content type: content-type.guard.ts; who may authorize a session).
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || !isContractClass(metadata.metatype)) return value;
    const cls = metadata.metatype as (new () => object) & ContractStatics;
    const plain = cls.documentField === undefined ? (value ?? {}) : { [cls.documentField]: value };
    return validateContract(cls, plain, undefined, { whitelist: true });
  }
}
