import { SUBJECTS } from '../subjects';
import { CreateApplicationRequest } from '../applications/applications';
import { UpdateTenantRequest } from '../tenants/tenants';
import { AuthorizeSessionRequest } from '../sessions/sessions';
import { CreateTokenRequest, SearchTokensRequest, SearchTokensV2Request } from '../tokens/tokens';
import { ReactorFormulaRequest } from '../reactors/formulas';
import { CreateReactorRequest } from '../reactors/reactors';
import { CodeReactorRequest } from '../reactors/code-reactors';
import { ListApplicationsQuery } from '../applications/application-queries';
import { ListReactorFormulasQuery, ListReactorsQuery } from '../reactors/reactor-queries';
import { ListLogsQuery } from '../audit/audit-queries';
import {
  ApplicationKeyMessage,
  AuditRecordMessage,
  AuthInvalidatedEvent,
  AuthenticateMessage,
  EmptyMessage,
  IdBodyMessage,
  IdMessage,
  ListQueryMessage,
  PayloadMessage,
  ReactorResultMessage,
  TenantGetMessage,
  TokenPatchMessage,
  WebhookSecretMessage,
} from './payloads';

type MessageClass = new () => object;

/**
 * Every subject with the class of its payload (two for POST /reactors: a formula reactor or a code reactor).
 * Subjects carrying an HTTP body directly use that body's contract; token lists carry `{query}`, the other lists the
 * query itself. The unit test checks that no subject of SUBJECTS is missing.
 */
export const MESSAGE_PAYLOADS: Record<string, MessageClass | readonly MessageClass[]> = {
  [SUBJECTS.session.authenticate]: AuthenticateMessage,
  [SUBJECTS.session.applications.create]: CreateApplicationRequest,
  [SUBJECTS.session.applications.list]: ListApplicationsQuery,
  [SUBJECTS.session.applications.get]: IdMessage,
  [SUBJECTS.session.applications.update]: IdBodyMessage,
  [SUBJECTS.session.applications.delete]: IdMessage,
  [SUBJECTS.session.applications.regenerate]: IdMessage,
  [SUBJECTS.session.applications.current]: EmptyMessage,
  [SUBJECTS.session.applications.keys.create]: ApplicationKeyMessage,
  [SUBJECTS.session.applications.keys.list]: ApplicationKeyMessage,
  [SUBJECTS.session.applications.keys.get]: ApplicationKeyMessage,
  [SUBJECTS.session.applications.keys.delete]: ApplicationKeyMessage,
  [SUBJECTS.session.applications.principal]: IdMessage,
  [SUBJECTS.session.tenants.get]: TenantGetMessage,
  [SUBJECTS.session.tenants.update]: UpdateTenantRequest,
  [SUBJECTS.session.tenants.webhookSecret]: WebhookSecretMessage,
  [SUBJECTS.session.tenants.rotateWebhookSecret]: EmptyMessage,
  [SUBJECTS.session.sessions.create]: EmptyMessage,
  [SUBJECTS.session.sessions.authorize]: AuthorizeSessionRequest,
  [SUBJECTS.token.tokens.create]: CreateTokenRequest,
  [SUBJECTS.token.tokens.get]: IdMessage,
  [SUBJECTS.token.tokens.list]: ListQueryMessage,
  [SUBJECTS.token.tokens.update]: TokenPatchMessage,
  [SUBJECTS.token.tokens.delete]: IdMessage,
  [SUBJECTS.token.tokens.search]: SearchTokensRequest,
  [SUBJECTS.token.tokens.listV2]: ListQueryMessage,
  [SUBJECTS.token.tokens.searchV2]: SearchTokensV2Request,
  [SUBJECTS.token.tokens.tokenize]: PayloadMessage,
  [SUBJECTS.token.tokens.detokenize]: PayloadMessage,
  // declared for per-token access decisions of reactor detokenization; no service answers it yet
  [SUBJECTS.token.logs.list]: ListLogsQuery,
  [SUBJECTS.token.audit.record]: AuditRecordMessage,
  [SUBJECTS.reactor.formulas.create]: ReactorFormulaRequest,
  [SUBJECTS.reactor.formulas.list]: ListReactorFormulasQuery,
  [SUBJECTS.reactor.formulas.get]: IdMessage,
  [SUBJECTS.reactor.formulas.update]: IdBodyMessage,
  [SUBJECTS.reactor.formulas.delete]: IdMessage,
  [SUBJECTS.reactor.reactors.create]: [CreateReactorRequest, CodeReactorRequest],
  [SUBJECTS.reactor.reactors.list]: ListReactorsQuery,
  [SUBJECTS.reactor.reactors.get]: IdMessage,
  [SUBJECTS.reactor.reactors.update]: IdBodyMessage,
  [SUBJECTS.reactor.reactors.delete]: IdMessage,
  [SUBJECTS.reactor.reactors.react]: IdBodyMessage,
  [SUBJECTS.reactor.reactors.result]: ReactorResultMessage,
  [SUBJECTS.reactor.reactors.patch]: IdBodyMessage,
  [SUBJECTS.reactor.reactors.reactAsync]: IdBodyMessage,
  [SUBJECTS.webhook.wake]: EmptyMessage,
  [SUBJECTS.events.authInvalidated]: AuthInvalidatedEvent,
};
