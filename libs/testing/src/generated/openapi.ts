/* eslint-disable */
// Generated from docs/openapi.json by `npm run openapi` (tools/openapi/types.mjs): do not edit.

export interface paths {
    "/applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List applications
         * @description application:read. Newest first; never keys.
         */
        get: operations["Applications_list"];
        put?: never;
        /**
         * Create an application
         * @description application:create. The reply carries `key` (and `keys`), shown only here. A permission the type may not hold is a 400.
         */
        post: operations["Applications_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The calling application
         * @description Any application key, no permission; a session key is a 403.
         */
        get: operations["Applications_current"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an application
         * @description application:read.
         */
        get: operations["Applications_get"];
        /**
         * Update an application
         * @description application:update. Name and grants; the type cannot change.
         */
        put: operations["Applications_update"];
        post?: never;
        /**
         * Delete an application
         * @description application:delete. Its keys stop working at once.
         */
        delete: operations["Applications_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{id}/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Regenerate the key of an application
         * @description application:update. The old key stops working at once; the reply carries the new `key`.
         */
        post: operations["Applications_regenerate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the keys of an application
         * @description application:read. Never the secrets.
         */
        get: operations["ApplicationKeys_list"];
        put?: never;
        /**
         * Create a key for an application
         * @description application:update. The secret `key` is in this reply only; at most 10 keys per application.
         */
        post: operations["ApplicationKeys_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{id}/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a key of an application
         * @description application:read. Never the secret.
         */
        get: operations["ApplicationKeys_get"];
        put?: never;
        post?: never;
        /**
         * Revoke a key of an application
         * @description application:update. The key stops working at once.
         */
        delete: operations["ApplicationKeys_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{id}/access-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview what an application may do with a token (Coffer extension)
         * @description application:read. For each token permission: allowed or not, and the transform (redact, mask, reveal) the data comes back with, decided exactly as the token routes decide for a token in `container` (and `token_id`). With `session`, the decision for a session this application authorizes with those grants (never more than the application itself). Reads no token.
         */
        post: operations["AccessPreview_preview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The permission catalog
         * @description Any application key (a session key: 403). The permissions each application type may hold; the same for every tenant.
         */
        get: operations["Permissions_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/logs/entity-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit entity types
         * @description log:read. The values GET /logs?entity_type= accepts.
         */
        get: operations["LogEntityTypes_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant of the key
         * @description tenant:read.
         */
        get: operations["Tenants_get"];
        /**
         * Update the tenant
         * @description tenant:update. Name and settings (deduplicate_tokens).
         */
        put: operations["Tenants_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook signing secret
         * @description tenant:read. The HMAC key of the Standard Webhooks signatures of asynchronous reactor results.
         */
        get: operations["Tenants_webhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's data key versions
         * @description tenant:read. Every version of the data key (id, version, whether active, created, the key-encryption key provider it is wrapped under), oldest first, and while a re-encryption job (admin keys reencrypt) runs for the tenant, its progress per kind of sealed value. Never key material.
         */
        get: operations["Tenants_keys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the webhook signing secret
         * @description tenant:update. For 24 hours webhooks carry two signatures, by the old and the new secret.
         */
        post: operations["Tenants_rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tenant members
         * @description tenant:member:read. Oldest first; `user_id` filters (repeatable).
         */
        get: operations["Members_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a tenant member
         * @description tenant:member:read.
         */
        get: operations["Members_get"];
        /**
         * Change a member's role
         * @description tenant:member:update. ADMIN, DEVELOPER or READ_ONLY; the owner is changed by PUT /tenants/self/owner only (409).
         */
        put: operations["Members_update"];
        post?: never;
        /**
         * Remove a tenant member
         * @description tenant:member:delete. The member's console sessions end at once; the owner cannot be removed (409).
         */
        delete: operations["Members_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/owner": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The owner of the tenant
         * @description tenant:member:read. 404 until a first member has joined.
         */
        get: operations["Members_owner"];
        /**
         * Transfer ownership
         * @description tenant:owner:transfer; a person must be the OWNER. The member named becomes the owner and the former owner an ADMIN, in one transaction.
         */
        put: operations["Members_transferOwner"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invitations
         * @description tenant:invitation:read. `status` PENDING or EXPIRED filters.
         */
        get: operations["Invitations_list"];
        put?: never;
        /**
         * Invite a person
         * @description tenant:invitation:create. Emails a single-use link that works for 72 hours; `role` ADMIN (default), DEVELOPER or READ_ONLY. A member or a pending invitation with that email is a 409.
         */
        post: operations["Invitations_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an invitation
         * @description tenant:invitation:read. Never its link.
         */
        get: operations["Invitations_get"];
        put?: never;
        post?: never;
        /**
         * Revoke an invitation
         * @description tenant:invitation:delete. Its link stops working at once.
         */
        delete: operations["Invitations_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/self/invitations/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend an invitation
         * @description tenant:invitation:update. A new link, valid 72 hours from now; the previous link stops working.
         */
        post: operations["Invitations_resend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List member roles
         * @description Any application key (a session key: 403). Each role with its permissions.
         */
        get: operations["Roles_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a session
         * @description A public application's key (any other key: 403). No body. The session key has no access until a private application authorizes it with the nonce.
         */
        post: operations["Sessions_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Authorize a session
         * @description A private application's key. Grants the session permissions or rules the authorizer holds itself (more: 400); the nonce is single-use.
         */
        post: operations["Sessions_authorize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tokens
         * @description token:read. Newest first; tokens no access rule allows are left out; data per the caller's transform. `metadata.<key>=<value>` filters by metadata (case-insensitive, ANDed).
         */
        get: operations["Tokens_list"];
        put?: never;
        /**
         * Create a token
         * @description token:create. With deduplication, an existing live token of the same type and fingerprint is answered instead (201, the same shape; without read access only id, type, tenant_id, fingerprint, containers). With `token_intent_id` instead of `data`, the intent's data becomes the token and the intent is consumed.
         */
        post: operations["Tokens_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a token
         * @description token:read. 403 when no access rule allows the token's container.
         */
        get: operations["Tokens_get"];
        put?: never;
        post?: never;
        /**
         * Delete a token
         * @description token:delete.
         */
        delete: operations["Tokens_delete"];
        options?: never;
        head?: never;
        /**
         * Update a token (JSON merge patch)
         * @description token:update. RFC 7386: null removes a key; containers, search_indexes, fingerprint_expression, deduplicate_token and expires_at are replaced. The type never changes.
         */
        patch: operations["Tokens_update"];
        trace?: never;
    };
    "/token-intents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a token intent
         * @description token-intent:create (public or private keys). The data is validated as a token of the type, stored encrypted for 24 hours and never returned; POST /tokens with token_intent_id makes it a token.
         */
        post: operations["Tokens_createIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/token-intents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a token intent
         * @description token-intent:read. 404 once it expired, was deleted or was converted to a token.
         */
        get: operations["Tokens_getIntent"];
        put?: never;
        post?: never;
        /**
         * Delete a token intent
         * @description token-intent:delete.
         */
        delete: operations["Tokens_deleteIntent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit events
         * @description log:read. Every token create, read, update, delete, use and every reactor invocation; never sensitive data.
         */
        get: operations["Tokens_logs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search tokens
         * @description token:search. Terms `field:value` joined by AND, OR, NOT, parentheses and quoted phrases; `data` terms match blind search indexes (never decrypted to compare).
         */
        post: operations["Tokens_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokenize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tokenize any JSON
         * @description token:create. An object with `type` and `data` is a token request (the fields of POST /tokens) and is replaced by the created token (masked); any other primitive becomes a `token` of that value and is replaced by its id; other objects and arrays are walked. All or nothing; at most 100 tokens per call. Errors name the nested path (`card.data.number`).
         */
        post: operations["Tokens_tokenize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/detokenize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Detokenize any JSON
         * @description token:use (or token:read with the reveal transform) for each token's container. Detokenization expressions `{{ <token id> }}` anywhere in the JSON are replaced by the token data.
         */
        post: operations["Tokens_detokenize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tokens (cursor pages)
         * @description token:read. Newest first; the same access rules and transforms as GET /tokens.
         */
        get: operations["TokensV2_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/tokens/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search tokens (cursor pages)
         * @description token:search. The query language of POST /tokens/search.
         */
        post: operations["TokensV2_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reactor-formulas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List formulas
         * @description reactor:read. The operator's official formulas and the tenant's private ones.
         */
        get: operations["ReactorFormulas_list"];
        put?: never;
        /**
         * Create a private formula
         * @description reactor:create. Only private formulas are created through the API (official ones are the operator's).
         */
        post: operations["ReactorFormulas_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reactor-formulas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a formula
         * @description reactor:read.
         */
        get: operations["ReactorFormulas_get"];
        /**
         * Replace a private formula
         * @description reactor:update. The same fields and rules as create.
         */
        put: operations["ReactorFormulas_update"];
        post?: never;
        /**
         * Delete a private formula
         * @description reactor:delete.
         */
        delete: operations["ReactorFormulas_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reactors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List reactors
         * @description reactor:read. Configuration values are returned as given.
         */
        get: operations["Reactors_list"];
        put?: never;
        /**
         * Create a reactor
         * @description reactor:create. From a formula (`formula.id`, configuration satisfying its contract) or with its own `code` (a code reactor): exactly one of the two.
         */
        post: operations["Reactors_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reactors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a reactor
         * @description reactor:read.
         */
        get: operations["Reactors_get"];
        /**
         * Replace a reactor
         * @description reactor:update. Name, configuration and application (absent = none); the formula cannot change. A code reactor takes name, code, configuration, application and runtime.
         */
        put: operations["Reactors_update"];
        post?: never;
        /**
         * Delete a reactor
         * @description reactor:delete.
         */
        delete: operations["Reactors_delete"];
        options?: never;
        head?: never;
        /**
         * Patch a reactor (JSON merge patch)
         * @description reactor:update. name, configuration, application; code and runtime of a code reactor.
         */
        patch: operations["Reactors_patch"];
        trace?: never;
    };
    "/reactors/{id}/react": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invoke a reactor
         * @description token:use, and token:use for the container of every token detokenized from args. Synchronous (at most 10 s, then 504) unless `callback_url` is given: then 202 and the result is POSTed to the URL. A formula may also answer with any status, headers and body of its own (CustomHttpResponseError).
         */
        post: operations["Reactors_react"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reactors/{id}/react-async": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invoke a reactor asynchronously
         * @description token:use. Read the result at GET /reactors/{id}/results/{request id}.
         */
        post: operations["Reactors_reactAsync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reactors/{id}/results/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Result of an asynchronous invocation
         * @description The invoking application with token:use, or a management application with reactor:read. status: pending | running | succeeded | failed for callback_url invocations; pending | completed | failed for react-async.
         */
        get: operations["Reactors_result"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description webhook:read. Newest first.
         */
        get: operations["Webhooks_list"];
        put?: never;
        /**
         * Create a webhook
         * @description webhook:create. At most five per tenant (a sixth is a 422). The URL obeys the callback egress policy. The reply holds the webhook’s own signing secret (`signing_secret`), shown only here.
         */
        post: operations["Webhooks_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event types
         * @description webhook:read. The values `events` accepts.
         */
        get: operations["Webhooks_eventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description webhook:read.
         */
        get: operations["Webhooks_get"];
        /**
         * Update a webhook
         * @description webhook:update. Name, URL, notify_email and events are replaced; `status: enabled` re-enables a disabled webhook.
         */
        put: operations["Webhooks_update"];
        post?: never;
        /**
         * Delete a webhook
         * @description webhook:delete. Its pending deliveries are dropped.
         */
        delete: operations["Webhooks_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook's deliveries (Coffer extension)
         * @description webhook:read. Newest first; `status` filters.
         */
        get: operations["Webhooks_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{deliveryId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again (Coffer extension)
         * @description webhook:update. A failed (or delivered) delivery is queued again with a fresh retry schedule; a pending one is a 409.
         */
        post: operations["Webhooks_resend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check the API key
         * @description Any valid API key; 401 otherwise. No body.
         */
        get: operations["Ping_ping"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List proxies
         * @description proxy:read. Newest first; `id` (repeatable) and `name` (wildcard `*`) filter.
         */
        get: operations["Proxies_list"];
        put?: never;
        /**
         * Create a proxy
         * @description proxy:create. The reply carries the generated `key` that invokes it (BT-PROXY-KEY). `configuration` is stored encrypted; tokenize transforms need an `application` with token:create.
         */
        post: operations["Proxies_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a proxy
         * @description proxy:read.
         */
        get: operations["Proxies_get"];
        /**
         * Update a proxy
         * @description proxy:update. Everything but the key is replaced; absent optional members take their defaults.
         */
        put: operations["Proxies_update"];
        post?: never;
        /**
         * Delete a proxy
         * @description proxy:delete. Its key stops working at once.
         */
        delete: operations["Proxies_delete"];
        options?: never;
        head?: never;
        /**
         * Patch a proxy (JSON merge patch)
         * @description proxy:update. The merged proxy is validated as a PUT. Answers 204, as the mirrored service does: GET the proxy to read it.
         */
        patch: operations["Proxies_patch"];
        trace?: never;
    };
    "/proxy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Proxy a GET request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        get: operations["Proxy_get[0]"];
        /**
         * Proxy a PUT request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        put: operations["Proxy_put[0]"];
        /**
         * Proxy a POST request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        post: operations["Proxy_post[0]"];
        /**
         * Proxy a DELETE request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        delete: operations["Proxy_delete[0]"];
        options?: never;
        head?: never;
        /**
         * Proxy a PATCH request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        patch: operations["Proxy_patch[0]"];
        trace?: never;
    };
    "/proxy/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Proxy a GET request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        get: operations["Proxy_get[1]"];
        /**
         * Proxy a PUT request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        put: operations["Proxy_put[1]"];
        /**
         * Proxy a POST request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        post: operations["Proxy_post[1]"];
        /**
         * Proxy a DELETE request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        delete: operations["Proxy_delete[1]"];
        options?: never;
        head?: never;
        /**
         * Proxy a PATCH request
         * @description proxy:invoke or token:use (the mirrored service's older name), and token:use for every token an expression detokenizes. The destination is BT-PROXY-URL (or SVC-PROXY-URL): https with a DNS name only; what follows /proxy in the path and the query are appended to it. `{{ token_id | filters }}` expressions in a JSON, form or text body and in header values are replaced with token data, as POST /detokenize does. The destination's status, headers and body come back, with BT-PROXY-DESTINATION-STATUS; redirects are returned, not followed. Hop-by-hop headers, cookies, the destination's content-security, CORS and Coffer-prefixed headers are removed, and every answer carries Content-Security-Policy: sandbox; default-src 'none', X-Content-Type-Options: nosniff and Cross-Origin-Resource-Policy: same-origin. A destination slower than 25 s gets a 408 problem.
         */
        patch: operations["Proxy_patch[1]"];
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description The process is up.
         */
        get: operations["operations_liveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description NATS reachable and not shutting down.
         */
        get: operations["operations_readiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        RuleConditionView: {
            /** @enum {string} */
            attribute: "id" | "container";
            /** @enum {string} */
            operator: "equals" | "starts_with";
            /** @example /pci/ */
            value: string;
        };
        AccessRuleView: {
            description?: string;
            /** @example 1 */
            priority: number;
            /**
             * @description a container prefix like /pci/ (or give conditions, sessions only)
             * @example /pci/
             */
            container?: string;
            conditions?: components["schemas"]["RuleConditionView"][];
            /**
             * @example mask
             * @enum {string}
             */
            transform: "redact" | "mask" | "reveal";
            /**
             * @example [
             *       "token:read"
             *     ]
             */
            permissions: string[];
        };
        CreateApplicationRequest: {
            /** @example Checkout backend */
            name: string;
            /**
             * @description cannot change later
             * @example private
             * @enum {string}
             */
            type: "public" | "private" | "management";
            /**
             * @description permissions for every container (or give rules instead)
             * @example [
             *       "token:create",
             *       "token:read"
             *     ]
             */
            permissions?: string[];
            /** @description access rules, tried in ascending priority (public and private applications) */
            rules?: components["schemas"]["AccessRuleView"][];
            /**
             * @description false: the application starts without a key
             * @default true
             */
            create_key: boolean;
        };
        ApplicationKeyView: {
            /** Format: uuid */
            id: string;
            /**
             * @description the secret: only in the reply that creates it
             * @example key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3
             */
            key?: string;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
        };
        ApplicationView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            /** @example Checkout backend */
            name: string;
            /** @enum {string} */
            type: "public" | "private" | "management";
            permissions?: string[];
            rules?: components["schemas"]["AccessRuleView"][];
            /** @description the API key: only in the replies to create and regenerate */
            key?: string;
            /** @description only in the replies to create and regenerate */
            keys?: components["schemas"]["ApplicationKeyView"][];
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
        };
        AnyPagination: {
            total_items?: number;
            page_number?: number;
            /** @example 20 */
            page_size: number;
            total_pages?: number;
            /** @description cursor form only: pass as `start` for the next page; absent on the last page */
            next?: string;
        };
        ApplicationPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["ApplicationView"][];
        };
        UpdateApplicationRequest: {
            /** @example Checkout backend */
            name: string;
            /**
             * @description permissions for every container (or give rules instead)
             * @example [
             *       "token:create",
             *       "token:read"
             *     ]
             */
            permissions?: string[];
            /** @description access rules, tried in ascending priority (public and private applications) */
            rules?: components["schemas"]["AccessRuleView"][];
        };
        ProblemDocument: {
            /** @description a URI naming the kind of problem (absent: about:blank) */
            type?: string;
            /**
             * @description the HTTP status text
             * @example Bad Request
             */
            title: string;
            /**
             * @description the HTTP status code
             * @example 400
             */
            status: number;
            /**
             * @description what went wrong, for people; never quotes token data, keys or configuration
             * @example The request is invalid
             */
            detail?: string;
            instance?: string;
            /**
             * @description validation failures: every offending field path with its messages
             * @example {
             *       "data.number": [
             *         "must pass the Luhn check"
             *       ]
             *     }
             */
            errors?: {
                [key: string]: string[];
            };
        };
        AccessPreviewSessionGrants: {
            /**
             * @example [
             *       "token:read"
             *     ]
             */
            permissions?: string[];
            rules?: components["schemas"]["AccessRuleView"][];
        };
        AccessPreviewRequest: {
            /**
             * @description the token's container (compared lower-case, as tokens store it)
             * @example /pci/high/
             */
            container: string;
            /** @description a token id, for rules with an `id` condition */
            token_id?: string;
            /** @description preview a session this application authorizes with these grants (capped by the application) instead of the application itself */
            session?: components["schemas"]["AccessPreviewSessionGrants"];
        };
        AccessPreviewDecision: {
            /** @example token:read */
            permission: string;
            allowed: boolean;
            /**
             * @description what the caller sees of the data when allowed
             * @enum {string}
             */
            transform?: "redact" | "mask" | "reveal";
        };
        AccessPreviewView: {
            /** Format: uuid */
            application_id: string;
            /** @example /pci/high/ */
            container: string;
            /** @enum {string} */
            subject: "application" | "session";
            /** @description the application's rule that decides for this token (when it has rules) */
            matched_rule?: components["schemas"]["AccessRuleView"];
            decisions: components["schemas"]["AccessPreviewDecision"][];
        };
        PermissionView: {
            /** @example token:read */
            type: string;
            /** @example Read tokens */
            description: string;
            /**
             * @example [
             *       "private"
             *     ]
             */
            application_types: string[];
        };
        LogEntityTypeView: {
            /** @example token */
            value: string;
            /** @example Token */
            display_name: string;
        };
        TenantSettingsView: {
            /**
             * @description deduplicate every token create (as if deduplicate_token were true)
             * @example false
             */
            deduplicate_tokens: boolean;
            /**
             * @description shown once set; absent: allow_public
             * @enum {string}
             */
            reactor_egress?: "allow_public" | "deny_unlisted";
            /** @description shown once set; absent or empty: any origin may frame the Elements fields */
            elements_allowed_origins?: string[];
            /** @description shown once set; absent: true (a management or private key may sign in to the console) */
            console_key_sign_in?: boolean;
            /** @description shown once set; absent: false (people need no second factor to sign in to the console) */
            console_require_mfa?: boolean;
        };
        TenantView: {
            /** Format: uuid */
            id: string;
            /** @example Acme */
            name: string;
            settings: components["schemas"]["TenantSettingsView"];
            /**
             * Format: uuid
             * @description the user id of the tenant's owner (absent until someone owns it)
             */
            owner_id?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            modified_at?: string;
        };
        TenantSettingsInput: {
            /** @description a boolean, or "true" / "false" (any case) */
            deduplicate_tokens?: boolean | ("true" | "false");
            /**
             * @description what reactors without an egress list may reach (default allow_public)
             * @enum {string}
             */
            reactor_egress?: "allow_public" | "deny_unlisted";
            /**
             * @description origins whose pages may frame the Elements fields (an array, or one comma-separated string); empty: any origin
             * @example [
             *       "https://shop.example.com"
             *     ]
             */
            elements_allowed_origins?: string[] | string;
            /** @description whether a management or private key may sign in to the console (default true); false: people sign in with single sign-on only */
            console_key_sign_in?: boolean | ("true" | "false");
            /** @description whether people must sign in to the console with a second factor (default false) */
            console_require_mfa?: boolean | ("true" | "false");
        };
        UpdateTenantRequest: {
            /** @example Acme */
            name?: string;
            settings?: components["schemas"]["TenantSettingsInput"];
        };
        WebhookSecretView: {
            /**
             * @description whsec_ followed by the base64 of 32 random bytes (the HMAC key is the decoded bytes)
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        TenantKeyVersionView: {
            /**
             * Format: uuid
             * @description the key id every sealed value records
             */
            id: string;
            /**
             * @description 1 for the tenant's first data key, counting up with each rotation
             * @example 2
             */
            version: number;
            /**
             * @description new values are sealed under this version (one version is active)
             * @example true
             */
            active: boolean;
            /** Format: date-time */
            created_at: string;
            /**
             * @description the key-encryption key it is wrapped under: env (KEY_ENCRYPTION_KEYS) or pkcs11 (an HSM)
             * @enum {string}
             */
            kek_provider: "env" | "pkcs11";
        };
        ReencryptionKindProgressView: {
            /**
             * @description the kind of sealed value: tokens, token_intents, reactor_configurations, proxy_secrets, job_arguments, job_outcomes, webhook_bodies, webhook_secrets, idempotency_replies
             * @example tokens
             */
            kind: string;
            /**
             * @description values of this kind the job has to move
             * @example 1200
             */
            rows_total: number;
            /**
             * @description values moved so far
             * @example 450
             */
            rows_done: number;
        };
        ReencryptionProgressView: {
            /**
             * Format: date-time
             * @description when the job started
             */
            started_at: string;
            /** @description per kind of sealed value; kinds the job has not reached yet are absent */
            kinds: components["schemas"]["ReencryptionKindProgressView"][];
        };
        TenantKeysView: {
            /** @description every data key version of the tenant, oldest first */
            data: components["schemas"]["TenantKeyVersionView"][];
            /** @description present while a re-encryption job runs for this tenant (or for every tenant), absent otherwise */
            reencryption?: components["schemas"]["ReencryptionProgressView"];
        };
        UserView: {
            /** Format: uuid */
            id: string;
            /** @example jane@example.com */
            email: string;
            /** @example Jane */
            first_name?: string;
            /** @example Doe */
            last_name?: string;
            picture?: string;
            /**
             * @description the issuer of the user's identity provider
             * @example https://login.example.com
             */
            provider?: string;
        };
        MemberView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            user: components["schemas"]["UserView"];
            /** @enum {string} */
            role: "OWNER" | "ADMIN" | "DEVELOPER" | "READ_ONLY";
            /**
             * Format: uuid
             * @description the user or application that added the member
             */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description the same as created_at (the name some clients read)
             */
            created_date?: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
        };
        MemberPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["MemberView"][];
        };
        UpdateMemberRequest: {
            /** @enum {string} */
            role: "ADMIN" | "DEVELOPER" | "READ_ONLY";
        };
        TransferOwnerRequest: {
            /**
             * Format: uuid
             * @description the member who becomes the owner; the former owner becomes ADMIN
             */
            member_id: string;
        };
        CreateInvitationRequest: {
            /** @example jane@example.com */
            email: string;
            /**
             * @default ADMIN
             * @enum {string}
             */
            role: "ADMIN" | "DEVELOPER" | "READ_ONLY";
        };
        InvitationView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            /** @example jane@example.com */
            email: string;
            /** @enum {string} */
            role: "ADMIN" | "DEVELOPER" | "READ_ONLY";
            /** @enum {string} */
            status: "PENDING" | "EXPIRED";
            /** Format: date-time */
            expires_at: string;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
        };
        InvitationPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["InvitationView"][];
        };
        RoleView: {
            /** @enum {string} */
            name: "OWNER" | "ADMIN" | "DEVELOPER" | "READ_ONLY";
            /** @example Manage everything but the owner */
            description: string;
            /** @description the permissions a member with this role acts with */
            permissions: string[];
        };
        CreateSessionResponse: {
            /** @description the session's API key: no access until the session is authorized */
            session_key: string;
            /** @description one-time code the authorizing (private) application sends to POST /sessions/authorize */
            nonce: string;
            /**
             * Format: date-time
             * @description default: 3 minutes after creation
             */
            expires_at: string;
        };
        AuthorizeSessionRequest: {
            /** @example 5b8c3f0e-6c1d-4c55-9a5b-2f8e4d7c1a90 */
            nonce: string;
            /**
             * @description token permissions the authorizer holds itself (or give rules)
             * @example [
             *       "token:create"
             *     ]
             */
            permissions?: string[];
            rules?: components["schemas"]["AccessRuleView"][];
            /**
             * Format: date-time
             * @description in the future, at most 24 hours after the session was created
             */
            expires_at?: string;
        };
        CreateTokenRequest: {
            /**
             * @description 3–400 characters, or an expression over data such as `{{ data | alias_preserve_format: 0, 4 }}`; default: a UUID
             * @example order-7d2f-card
             */
            id?: string;
            /**
             * @description decides how data is validated and the defaults of mask, container and search indexes
             * @example card
             * @enum {string}
             */
            type: "token" | "card" | "bank" | "card_number" | "us_bank_routing_number" | "us_bank_account_number" | "social_security_number" | "employer_id_number";
            /**
             * @description required unless token_intent_id is given; at most 256 KiB serialized; validated per type (card: number 13–19 digits passing Luhn, bank: routing number with ABA checksum, …)
             * @example {
             *       "number": "4242424242424242",
             *       "expiration_month": 12,
             *       "expiration_year": 2030,
             *       "cvc": "123"
             *     }
             */
            data?: Record<string, never> | unknown[] | string | number | boolean;
            /**
             * Format: uuid
             * @description instead of data (and type, which may be omitted or must equal the intent's): a live token intent, whose data becomes the token's; the intent is consumed by the create (docs/token-intents.md)
             * @example 665bf471-d675-4165-9336-4fc9c1a73fad
             */
            token_intent_id?: string;
            /**
             * @description mask expressions mirroring data; default: the type's mask
             * @example {
             *       "number": "{{ data.number | reveal_last: 4 }}"
             *     }
             */
            mask?: Record<string, never> | unknown[] | string | number | boolean;
            /**
             * @description exactly one container path like /pci/high/ (stored lower-case)
             * @example [
             *       "/pci/high/"
             *     ]
             */
            containers?: string[];
            /**
             * @description non-sensitive strings, at most 100 keys
             * @example {
             *       "customer": "c-42"
             *     }
             */
            metadata?: {
                [key: string]: string;
            };
            /**
             * @description expressions over data producing blind search indexes
             * @example [
             *       "{{ data | last4 }}"
             *     ]
             */
            search_indexes?: string[];
            /**
             * @description default `{{ data | stringify }}`
             * @example {{ data.number }}
             */
            fingerprint_expression?: string;
            /** @description return an existing live token of the same type and fingerprint instead of a new one */
            deduplicate_token?: boolean | null;
            /**
             * @description M/D/YYYY h:mm:ss AM/PM +hh:mm, M/D/YYYY (12 AM UTC) or ISO 8601; must lie in the future
             * @example 2030-01-31T00:00:00Z
             */
            expires_at?: string | null;
        };
        TokenView: {
            /** @example c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11 */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            /** @example card */
            type: string;
            /**
             * @description revealed, masked or (when absent) redacted per the caller's transform
             * @example {
             *       "number": "############4242",
             *       "expiration_month": 12,
             *       "expiration_year": 2030
             *     }
             */
            data?: Record<string, never> | unknown[] | string | number | boolean;
            mask?: Record<string, never> | unknown[] | string | number | boolean;
            /** @example AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X */
            fingerprint?: string;
            /** @example {{ data | stringify }} */
            fingerprint_expression?: string;
            /**
             * @example [
             *       "/pci/high/"
             *     ]
             */
            containers: string[];
            metadata?: {
                [key: string]: string;
            };
            search_indexes?: string[];
            /** Format: date-time */
            expires_at?: string;
            /**
             * Format: uuid
             * @description the application that created the token
             */
            created_by?: string;
            /** Format: date-time */
            created_at?: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
        };
        TokenPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["TokenView"][];
        };
        UpdateTokenPatch: {
            /**
             * @description required unless token_intent_id is given; at most 256 KiB serialized; validated per type (card: number 13–19 digits passing Luhn, bank: routing number with ABA checksum, …)
             * @example {
             *       "number": "4242424242424242",
             *       "expiration_month": 12,
             *       "expiration_year": 2030,
             *       "cvc": "123"
             *     }
             */
            data?: Record<string, never> | unknown[] | string | number | boolean;
            /**
             * @description mask expressions mirroring data; default: the type's mask
             * @example {
             *       "number": "{{ data.number | reveal_last: 4 }}"
             *     }
             */
            mask?: Record<string, never> | unknown[] | string | number | boolean;
            /**
             * @description exactly one container path like /pci/high/ (stored lower-case)
             * @example [
             *       "/pci/high/"
             *     ]
             */
            containers?: string[];
            /**
             * @description non-sensitive strings, at most 100 keys
             * @example {
             *       "customer": "c-42"
             *     }
             */
            metadata?: {
                [key: string]: string;
            };
            /**
             * @description expressions over data producing blind search indexes
             * @example [
             *       "{{ data | last4 }}"
             *     ]
             */
            search_indexes?: string[];
            /**
             * @description default `{{ data | stringify }}`
             * @example {{ data.number }}
             */
            fingerprint_expression?: string;
            /** @description return an existing live token of the same type and fingerprint instead of a new one */
            deduplicate_token?: boolean | null;
            /**
             * @description M/D/YYYY h:mm:ss AM/PM +hh:mm, M/D/YYYY (12 AM UTC) or ISO 8601; must lie in the future
             * @example 2030-01-31T00:00:00Z
             */
            expires_at?: string | null;
        };
        CreateTokenIntentRequest: {
            /**
             * @description the type of the token the intent is meant to become; decides how data is validated
             * @example card
             * @enum {string}
             */
            type: "token" | "card" | "bank" | "card_number" | "us_bank_routing_number" | "us_bank_account_number" | "social_security_number" | "employer_id_number";
            /**
             * @description validated as the data of a token of this type; at most 256 KiB serialized; stored encrypted, never returned
             * @example {
             *       "number": "4242424242424242",
             *       "expiration_month": 12,
             *       "expiration_year": 2030,
             *       "cvc": "123"
             *     }
             */
            data: Record<string, never> | unknown[] | string | number | boolean;
        };
        CardDetailsView: {
            /**
             * @description the first 8 digits of a number of 16 or more digits, else the first 6
             * @example 42424242
             */
            bin: string;
            /** @example 4242 */
            last4: string;
            /** @example 12 */
            expiration_month?: number;
            /** @example 2030 */
            expiration_year?: number;
            /**
             * @description from the number prefix: visa, mastercard, american-express, discover, diners-club, jcb, unionpay, maestro; absent when none matches
             * @example visa
             */
            brand?: string;
        };
        BankDetailsView: {
            /** @example 110000000 */
            routing_number: string;
            /** @example 6789 */
            account_number_last4: string;
        };
        TokenIntentView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            /** @example card */
            type: string;
            /** @description the fingerprint the token made of this intent gets with the default fingerprint expression */
            fingerprint: string;
            /** @description card intents only */
            card?: components["schemas"]["CardDetailsView"];
            /** @description bank intents only */
            bank?: components["schemas"]["BankDetailsView"];
            /**
             * Format: uuid
             * @description the application that created the intent
             */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description 24 hours after created_at
             */
            expires_at: string;
        };
        AuditEventView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            /** Format: uuid */
            actor_application_id?: string;
            /**
             * Format: uuid
             * @description the same application, under the name clients of the mirrored service read
             */
            actor_id?: string;
            /**
             * @description `system`: Coffer itself (webhook-dispatcher disabling a webhook)
             * @enum {string}
             */
            actor_type?: "application" | "session" | "user" | "operator" | "anonymous" | "system";
            /** @description the actor's name where known (the operator's) */
            actor_name?: string;
            /** @example Token created */
            message: string;
            /** @example create */
            operation: string;
            /** @example token */
            entity_type: string;
            entity_id: string;
            trace_id?: string;
            /**
             * @description what changed: old and new values of names and settings; secrets only as {redacted: true}
             * @example {
             *       "name": {
             *         "old": "a",
             *         "new": "b"
             *       },
             *       "key": {
             *         "redacted": true
             *       }
             *     }
             */
            changes?: {
                [key: string]: unknown;
            };
            /** @description refused authentications: the client address */
            source?: string;
            /** @description refused authentications: how many this record (one per minute, reason and source) stands for */
            count?: number;
            /** Format: date-time */
            created_at: string;
        };
        AuditEventPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["AuditEventView"][];
        };
        SearchTokensRequest: {
            /**
             * @description field:value terms (id, type, container, fingerprint, metadata.<key>, data, created_at ranges) joined by AND, OR, NOT and parentheses
             * @example metadata.customer:c-42 AND type:card
             */
            query: string;
            /** @default 1 */
            page: number;
            /** @default 20 */
            size: number;
        };
        OffsetPagination: {
            /** @example 1 */
            total_items: number;
            /** @example 1 */
            page_number: number;
            /** @example 20 */
            page_size: number;
            /** @example 1 */
            total_pages: number;
        };
        TokenSearchPage: {
            pagination: components["schemas"]["OffsetPagination"];
            data: components["schemas"]["TokenView"][];
        };
        CursorPagination: {
            /** @example 20 */
            page_size: number;
            /** @description pass as `start` for the next page; absent on the last page */
            next?: string;
        };
        TokenCursorPage: {
            pagination: components["schemas"]["CursorPagination"];
            data: components["schemas"]["TokenView"][];
        };
        SearchTokensV2Request: {
            /**
             * @description the query language of POST /tokens/search
             * @example metadata.customer:c-42 AND type:card
             */
            query?: string;
            /** @default 20 */
            size: number;
            /** @description pagination.next of the previous page */
            start?: string;
        };
        FormulaConfigurationElement: {
            /**
             * @description no dots: nested configuration names are not supported
             * @example API_KEY
             */
            name: string;
            description?: string;
            /**
             * @example string
             * @enum {string}
             */
            type: "string" | "boolean" | "number";
        };
        FormulaRequestParameter: {
            /**
             * @description dots denote nesting (card.number)
             * @example card.number
             */
            name: string;
            description?: string;
            /**
             * @example string
             * @enum {string}
             */
            type: "string" | "boolean" | "number";
            /**
             * @description request: optional, default false; always present in replies
             * @default false
             */
            optional: boolean;
        };
        ReactorEgressInput: {
            /**
             * @description hosts the code may reach: exact names, IP literals or *.domain patterns (no scheme, port or path)
             * @example [
             *       "api.stripe.com",
             *       "*.example.com"
             *     ]
             */
            allow: string[];
        };
        ReactorFormulaRequest: {
            /** @example Charge a card */
            name: string;
            description?: string | null;
            /** @description a base64 data URL of image/png, image/jpg or image/jpeg */
            icon?: string | null;
            /**
             * @description a CommonJS module for Node.js 16 exporting one async function (req) => ({raw?, tokenize?})
             * @example module.exports = async function (req) { return { raw: { ok: true } }; };
             */
            code: string;
            /** @description the configuration contract of every reactor made from the formula; default [] */
            configuration?: components["schemas"]["FormulaConfigurationElement"][] | null;
            /** @description an optional contract for `args`; default [] */
            request_parameters?: components["schemas"]["FormulaRequestParameter"][] | null;
            /**
             * @description official formulas are provisioned by the operator
             * @enum {string}
             */
            type: "private";
            /** @description hosts its reactors' code may reach, unless a reactor lists its own */
            egress?: components["schemas"]["ReactorEgressInput"] | null;
        };
        ReactorEgressView: {
            /**
             * @example [
             *       "api.stripe.com"
             *     ]
             */
            allow: string[];
        };
        ReactorFormulaView: {
            /** Format: uuid */
            id: string;
            /** @example Charge a card */
            name: string;
            description?: string;
            /** @enum {string} */
            type: "official" | "private";
            /** @enum {string} */
            status: "verified" | "coming_soon";
            icon?: string;
            code: string;
            configuration: components["schemas"]["FormulaConfigurationElement"][];
            request_parameters: components["schemas"]["FormulaRequestParameter"][];
            /** @description the hosts its code may reach; absent: the tenant default */
            egress?: components["schemas"]["ReactorEgressView"];
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
        };
        ReactorFormulaPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["ReactorFormulaView"][];
        };
        ReactorRef: {
            /** Format: uuid */
            id: string;
        };
        CreateReactorRequest: {
            /** @example Charge card */
            name: string;
            /**
             * @description names and values satisfying the formula's configuration contract; secrets, stored encrypted
             * @example {
             *       "API_KEY": "sk_test_123"
             *     }
             */
            configuration: {
                [key: string]: unknown;
            };
            /** @description a public or private application the `svc` client acts as */
            application?: components["schemas"]["ReactorRef"] | null;
            /** @description the hosts its code may reach; absent or null: the tenant default (settings.reactor_egress) */
            egress?: components["schemas"]["ReactorEgressInput"] | null;
            /** @description the formula to configure */
            formula: components["schemas"]["ReactorRef"];
        };
        CodeReactorRequest: {
            /** @example Hello reactor */
            name: string;
            /** @example module.exports = async function (req) { return { raw: { hello: req.args.name } }; }; */
            code: string;
            /** @description at most 100 entries of string, number or boolean (secrets, stored encrypted) */
            configuration?: {
                [key: string]: string | number | boolean;
            } | null;
            application?: components["schemas"]["ReactorRef"] | null;
            /**
             * @description may name the one runtime: {"image": "node-bt"}
             * @example {
             *       "image": "node-bt"
             *     }
             */
            runtime?: {
                [key: string]: unknown;
            } | null;
            /** @description the hosts its code may reach; absent or null: the tenant default (settings.reactor_egress) */
            egress?: components["schemas"]["ReactorEgressInput"] | null;
        };
        ReactResponse: {
            /** @description the tokens created from the `tokenize` part of the result (as POST /tokenize answers) */
            tokens?: Record<string, never> | unknown[] | string | number | boolean;
            /**
             * @description the `raw` part of the result, as returned
             * @example {
             *       "charged": true
             *     }
             */
            raw?: Record<string, never> | unknown[] | string | number | boolean;
            /** @description with `capture_logs`: the formula's console output, one line per call (`[log] …`) */
            logs?: string[];
        };
        ReactAccepted: {
            /**
             * Format: uuid
             * @description the request id: GET /reactors/{id}/results/{request id}
             */
            id: string;
            /** @enum {string} */
            status: "pending";
        };
        ReactorView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            /** @example Charge card */
            name: string;
            /** @description formula reactors */
            formula?: components["schemas"]["ReactorFormulaView"];
            /** @description code reactors: the CommonJS module */
            code?: string;
            /** @description code reactors, when given */
            runtime?: {
                [key: string]: unknown;
            };
            application?: components["schemas"]["ReactorRef"];
            configuration: {
                [key: string]: unknown;
            };
            /** @description the hosts its code may reach; absent: the tenant default */
            egress?: components["schemas"]["ReactorEgressView"];
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
        };
        ReactorPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["ReactorView"][];
        };
        UpdateReactorRequest: {
            /** @example Charge card */
            name: string;
            /**
             * @description names and values satisfying the formula's configuration contract; secrets, stored encrypted
             * @example {
             *       "API_KEY": "sk_test_123"
             *     }
             */
            configuration: {
                [key: string]: unknown;
            };
            /** @description a public or private application the `svc` client acts as */
            application?: components["schemas"]["ReactorRef"] | null;
            /** @description the hosts its code may reach; absent or null: the tenant default (settings.reactor_egress) */
            egress?: components["schemas"]["ReactorEgressInput"] | null;
        };
        ReactRequest: {
            /**
             * @description arguments; values written `{{ <token id> }}` are detokenized first (at most 100 tokens)
             * @example {
             *       "card": "{{ 3c5d0a1e-8d2f-4a55-8f0e-8b6a4c113d3b }}",
             *       "amount": 1200
             *     }
             */
            args?: {
                [key: string]: unknown;
            } | null;
            /** @description makes the invocation asynchronous (202): the result is POSTed there, signed (Standard Webhooks) */
            callback_url?: string | null;
            /**
             * @description honoured for asynchronous runs only
             * @default 10000
             */
            timeout_ms: number | null;
            /**
             * @description Coffer extension, synchronous runs only: the formula's console output in `logs` of the answer (or of the problem when it fails); at most 200 lines and 64 KiB; never stored
             * @default false
             */
            capture_logs: boolean | null;
        };
        ReactorMergePatch: {
            /** @example Hello reactor */
            name?: string;
            /** @example module.exports = async function (req) { return { raw: { hello: req.args.name } }; }; */
            code?: string;
            /** @description at most 100 entries of string, number or boolean (secrets, stored encrypted) */
            configuration?: {
                [key: string]: string | number | boolean;
            } | null;
            application?: components["schemas"]["ReactorRef"] | null;
            /**
             * @description may name the one runtime: {"image": "node-bt"}
             * @example {
             *       "image": "node-bt"
             *     }
             */
            runtime?: {
                [key: string]: unknown;
            } | null;
            /** @description the hosts its code may reach; absent or null: the tenant default (settings.reactor_egress) */
            egress?: components["schemas"]["ReactorEgressInput"] | null;
        };
        ReactAsyncRequest: {
            /**
             * @description arguments, detokenized like those of POST /reactors/{id}/react
             * @example {
             *       "name": "world"
             *     }
             */
            args?: {
                [key: string]: unknown;
            } | null;
            /** @default 10000 */
            timeout_ms: number | null;
        };
        ReactAsyncAccepted: {
            /**
             * Format: uuid
             * @description the request id: GET /reactors/{id}/results/{request id}
             */
            id: string;
            /** @enum {string} */
            status: "pending";
            /** Format: uuid */
            asyncReactorRequestId: string;
        };
        ReactorJobResultView: {
            /** Format: uuid */
            id: string;
            /**
             * @description callback_url invocations: pending | running | succeeded | failed; react-async: pending | completed | failed
             * @enum {string}
             */
            status: "pending" | "running" | "succeeded" | "failed" | "completed";
            /** @description the Reactor Response, once succeeded or completed */
            result?: Record<string, never> | unknown[] | string | number | boolean;
            /** @description the problem document, once failed */
            error?: Record<string, never> | unknown[] | string | number | boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            completed_at?: string;
        };
        CreateWebhookRequest: {
            /** @example ledger sync */
            name: string;
            /** @example https://hooks.example.com/coffer */
            url: string;
            /**
             * @description told when the webhook is disabled after sustained failure
             * @example ops@example.com
             */
            notify_email?: string;
            /**
             * @description event types (GET /webhooks/event-types)
             * @example [
             *       "token.created"
             *     ]
             */
            events: string[];
        };
        CreatedWebhookView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            /** @enum {string} */
            status: "enabled" | "disabled";
            name: string;
            url: string;
            notify_email?: string;
            events: string[];
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
            /**
             * @description The webhook’s signing secret, `whsec_<base64 of 32 random bytes>`; shown only in this reply. Its deliveries carry `webhook-signature: v1,<base64 HMAC-SHA256>` keyed with the decoded bytes (docs/webhooks.md).
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            signing_secret: string;
        };
        WebhookView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            /** @enum {string} */
            status: "enabled" | "disabled";
            name: string;
            url: string;
            notify_email?: string;
            events: string[];
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
        };
        WebhookPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["WebhookView"][];
        };
        UpdateWebhookRequest: {
            /** @example ledger sync */
            name: string;
            /** @example https://hooks.example.com/coffer */
            url: string;
            /**
             * @description told when the webhook is disabled after sustained failure
             * @example ops@example.com
             */
            notify_email?: string;
            /**
             * @description event types (GET /webhooks/event-types)
             * @example [
             *       "token.created"
             *     ]
             */
            events: string[];
            /**
             * @description absent: unchanged
             * @enum {string}
             */
            status?: "enabled" | "disabled";
        };
        WebhookDeliveryView: {
            /**
             * Format: uuid
             * @description the webhook-id header of its attempts
             */
            id: string;
            /** Format: uuid */
            webhook_id: string;
            /** Format: uuid */
            event_id: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            last_error?: string;
            /** @description the latest attempt's HTTP status; absent before the first attempt or when no answer came */
            last_status_code?: number;
            /** @description the latest attempt's duration in milliseconds */
            last_duration_ms?: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            delivered_at?: string;
        };
        WebhookDeliveryPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["WebhookDeliveryView"][];
        };
        CreateProxyRequest: {
            /** @example Card processor */
            name: string;
            /**
             * @description https, a DNS name
             * @example https://api.processor.example/v1
             */
            destination_url: string;
            /** @description run in order on the request (docs/proxy.md) */
            request_transforms?: Record<string, never>[] | null;
            /** @description run in order on the destination's answer */
            response_transforms?: Record<string, never>[] | null;
            /** @description a public or private application: code transforms get it as `req.bt`; tokenize transforms create tokens as it */
            application?: components["schemas"]["ReactorRef"] | null;
            /** @description secrets for the transforms, stored encrypted */
            configuration?: {
                [key: string]: string | null;
            } | null;
            /**
             * @description false: anyone with the proxy key may call it without an API key (inbound)
             * @default true
             */
            require_auth: boolean | null;
            /**
             * @description true: expressions in requests are sent as they are
             * @default false
             */
            disable_detokenization: boolean | null;
        };
        ProxyView: {
            /** Format: uuid */
            id: string;
            /** @description invokes the proxy: BT-PROXY-KEY header or bt-proxy-key query parameter */
            key: string;
            /** Format: uuid */
            tenant_id: string;
            name: string;
            destination_url: string;
            /** @enum {string} */
            state: "active";
            request_transforms: Record<string, never>[];
            response_transforms: Record<string, never>[];
            /** @description the first request transform (older clients read it) */
            request_transform?: {
                [key: string]: unknown;
            };
            /** @description the first response transform (older clients read it) */
            response_transform?: {
                [key: string]: unknown;
            };
            /** Format: uuid */
            application_id?: string;
            configuration: {
                [key: string]: string | null;
            };
            require_auth: boolean;
            disable_detokenization: boolean;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            modified_by?: string;
            /** Format: date-time */
            modified_at?: string;
        };
        ProxyPage: {
            pagination: components["schemas"]["AnyPagination"];
            data: components["schemas"]["ProxyView"][];
        };
    };
    responses: {
        /** @description The request is invalid: `errors` names every offending field (body, query parameter) with its messages */
        Problem400: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Bad Request",
                 *       "status": 400,
                 *       "detail": "The request is invalid: `errors` names every offending field (body, query parameter) with its messages"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description The API key is missing, unknown or expired */
        Problem401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Unauthorized",
                 *       "status": 401,
                 *       "detail": "The API key is missing, unknown or expired"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description The API key does not grant access to this operation */
        Problem403: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Forbidden",
                 *       "status": 403,
                 *       "detail": "The API key does not grant access to this operation"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description No such resource in the tenant of the key (ids of other tenants are unknown too) */
        Problem404: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Not Found",
                 *       "status": 404,
                 *       "detail": "No such resource in the tenant of the key (ids of other tenants are unknown too)"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description A request with the same idempotency key is still in flight */
        Problem409: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Conflict",
                 *       "status": 409,
                 *       "detail": "A request with the same idempotency key is still in flight"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description The request body exceeds the 1 MiB limit */
        Problem413: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Payload Too Large",
                 *       "status": 413,
                 *       "detail": "The request body exceeds the 1 MiB limit"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description A path parameter exceeds 4096 characters (as sent, percent-encoded) */
        Problem414: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Error",
                 *       "status": 414,
                 *       "detail": "A path parameter exceeds 4096 characters (as sent, percent-encoded)"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description The Content-Type of the request is not supported (JSON only) */
        Problem415: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Unsupported Media Type",
                 *       "status": 415,
                 *       "detail": "The Content-Type of the request is not supported (JSON only)"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description The idempotency key was already used for a different request */
        Problem422: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Unprocessable Entity",
                 *       "status": 422,
                 *       "detail": "The idempotency key was already used for a different request"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description Rate limited: retry after the seconds of the Retry-After header */
        Problem429: {
            headers: {
                /** @description seconds to wait before retrying */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Too Many Requests",
                 *       "status": 429,
                 *       "detail": "Rate limited: retry after the seconds of the Retry-After header"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description A backing service is unavailable */
        Problem503: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Service Unavailable",
                 *       "status": 503,
                 *       "detail": "A backing service is unavailable"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
        /** @description A backing service did not answer in time */
        Problem504: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "title": "Gateway Timeout",
                 *       "status": 504,
                 *       "detail": "A backing service did not answer in time"
                 *     }
                 */
                "application/problem+json": components["schemas"]["ProblemDocument"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    Applications_list: {
        parameters: {
            query?: {
                page?: number;
                size?: number;
                /** @description cursor form: `pagination.next` of the previous page ("" for the first); not with page */
                start?: string;
                /** @description application ids (repeatable) */
                id?: string[];
                /** @description application types (repeatable) */
                type?: ("public" | "private" | "management")[];
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "name": "Checkout backend",
                     *           "type": "public",
                     *           "permissions": [
                     *             "string"
                     *           ],
                     *           "rules": [
                     *             {
                     *               "description": "string",
                     *               "priority": 1,
                     *               "container": "/pci/",
                     *               "conditions": [
                     *                 {
                     *                   "attribute": "id",
                     *                   "operator": "equals",
                     *                   "value": "/pci/"
                     *                 }
                     *               ],
                     *               "transform": "mask",
                     *               "permissions": [
                     *                 "token:read"
                     *               ]
                     *             }
                     *           ],
                     *           "key": "string",
                     *           "keys": [
                     *             {
                     *               "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *               "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *               "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *               "created_at": "2030-01-31T12:00:00.000Z"
                     *             }
                     *           ],
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ApplicationPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Applications_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Checkout backend",
                 *       "type": "private",
                 *       "permissions": [
                 *         "token:create",
                 *         "token:read"
                 *       ],
                 *       "rules": [
                 *         {
                 *           "description": "string",
                 *           "priority": 1,
                 *           "container": "/pci/",
                 *           "conditions": [
                 *             {
                 *               "attribute": "id",
                 *               "operator": "equals",
                 *               "value": "/pci/"
                 *             }
                 *           ],
                 *           "transform": "mask",
                 *           "permissions": [
                 *             "token:read"
                 *           ]
                 *         }
                 *       ],
                 *       "create_key": true
                 *     }
                 */
                "application/json": components["schemas"]["CreateApplicationRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Checkout backend",
                     *       "type": "public",
                     *       "permissions": [
                     *         "string"
                     *       ],
                     *       "rules": [
                     *         {
                     *           "description": "string",
                     *           "priority": 1,
                     *           "container": "/pci/",
                     *           "conditions": [
                     *             {
                     *               "attribute": "id",
                     *               "operator": "equals",
                     *               "value": "/pci/"
                     *             }
                     *           ],
                     *           "transform": "mask",
                     *           "permissions": [
                     *             "token:read"
                     *           ]
                     *         }
                     *       ],
                     *       "key": "string",
                     *       "keys": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ApplicationView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Applications_current: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Checkout backend",
                     *       "type": "public",
                     *       "permissions": [
                     *         "string"
                     *       ],
                     *       "rules": [
                     *         {
                     *           "description": "string",
                     *           "priority": 1,
                     *           "container": "/pci/",
                     *           "conditions": [
                     *             {
                     *               "attribute": "id",
                     *               "operator": "equals",
                     *               "value": "/pci/"
                     *             }
                     *           ],
                     *           "transform": "mask",
                     *           "permissions": [
                     *             "token:read"
                     *           ]
                     *         }
                     *       ],
                     *       "key": "string",
                     *       "keys": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ApplicationView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Applications_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Checkout backend",
                     *       "type": "public",
                     *       "permissions": [
                     *         "string"
                     *       ],
                     *       "rules": [
                     *         {
                     *           "description": "string",
                     *           "priority": 1,
                     *           "container": "/pci/",
                     *           "conditions": [
                     *             {
                     *               "attribute": "id",
                     *               "operator": "equals",
                     *               "value": "/pci/"
                     *             }
                     *           ],
                     *           "transform": "mask",
                     *           "permissions": [
                     *             "token:read"
                     *           ]
                     *         }
                     *       ],
                     *       "key": "string",
                     *       "keys": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ApplicationView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Applications_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Checkout backend",
                 *       "permissions": [
                 *         "token:create",
                 *         "token:read"
                 *       ],
                 *       "rules": [
                 *         {
                 *           "description": "string",
                 *           "priority": 1,
                 *           "container": "/pci/",
                 *           "conditions": [
                 *             {
                 *               "attribute": "id",
                 *               "operator": "equals",
                 *               "value": "/pci/"
                 *             }
                 *           ],
                 *           "transform": "mask",
                 *           "permissions": [
                 *             "token:read"
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["UpdateApplicationRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Checkout backend",
                     *       "type": "public",
                     *       "permissions": [
                     *         "string"
                     *       ],
                     *       "rules": [
                     *         {
                     *           "description": "string",
                     *           "priority": 1,
                     *           "container": "/pci/",
                     *           "conditions": [
                     *             {
                     *               "attribute": "id",
                     *               "operator": "equals",
                     *               "value": "/pci/"
                     *             }
                     *           ],
                     *           "transform": "mask",
                     *           "permissions": [
                     *             "token:read"
                     *           ]
                     *         }
                     *       ],
                     *       "key": "string",
                     *       "keys": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ApplicationView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Applications_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Applications_regenerate: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Checkout backend",
                     *       "type": "public",
                     *       "permissions": [
                     *         "string"
                     *       ],
                     *       "rules": [
                     *         {
                     *           "description": "string",
                     *           "priority": 1,
                     *           "container": "/pci/",
                     *           "conditions": [
                     *             {
                     *               "attribute": "id",
                     *               "operator": "equals",
                     *               "value": "/pci/"
                     *             }
                     *           ],
                     *           "transform": "mask",
                     *           "permissions": [
                     *             "token:read"
                     *           ]
                     *         }
                     *       ],
                     *       "key": "string",
                     *       "keys": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ApplicationView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ApplicationKeys_list: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *         "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "created_at": "2030-01-31T12:00:00.000Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ApplicationKeyView"][];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ApplicationKeys_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ApplicationKeyView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            /** @description The application already holds 10 keys */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unprocessable Entity",
                     *       "status": 422,
                     *       "detail": "The application already holds 10 keys"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ApplicationKeys_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
                /** @description the key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "key": "key_2c0f4a0e8b7d4f52a1f3c9d0e6b5a4c3",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ApplicationKeyView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ApplicationKeys_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
                /** @description the key id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    AccessPreview_preview: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the application id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "container": "/pci/high/",
                 *       "token_id": "string",
                 *       "session": {
                 *         "permissions": [
                 *           "token:read"
                 *         ],
                 *         "rules": [
                 *           {
                 *             "description": "string",
                 *             "priority": 1,
                 *             "container": "/pci/",
                 *             "conditions": [
                 *               {
                 *                 "attribute": "id",
                 *                 "operator": "equals",
                 *                 "value": "/pci/"
                 *               }
                 *             ],
                 *             "transform": "mask",
                 *             "permissions": [
                 *               "token:read"
                 *             ]
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["AccessPreviewRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "application_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "container": "/pci/high/",
                     *       "subject": "application",
                     *       "matched_rule": {
                     *         "description": "string",
                     *         "priority": 1,
                     *         "container": "/pci/",
                     *         "conditions": [
                     *           {
                     *             "attribute": "id",
                     *             "operator": "equals",
                     *             "value": "/pci/"
                     *           }
                     *         ],
                     *         "transform": "mask",
                     *         "permissions": [
                     *           "token:read"
                     *         ]
                     *       },
                     *       "decisions": [
                     *         {
                     *           "permission": "token:read",
                     *           "allowed": true,
                     *           "transform": "redact"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AccessPreviewView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Permissions_list: {
        parameters: {
            query?: {
                /** @description only the permissions this application type may hold */
                application_type?: "public" | "private" | "management";
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "type": "token:read",
                     *         "description": "Read tokens",
                     *         "application_types": [
                     *           "private"
                     *         ]
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["PermissionView"][];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    LogEntityTypes_list: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "value": "token",
                     *         "display_name": "Token"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["LogEntityTypeView"][];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tenants_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Acme",
                     *       "settings": {
                     *         "deduplicate_tokens": false,
                     *         "reactor_egress": "allow_public",
                     *         "elements_allowed_origins": [
                     *           "string"
                     *         ],
                     *         "console_key_sign_in": true,
                     *         "console_require_mfa": true
                     *       },
                     *       "owner_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TenantView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tenants_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Acme",
                 *       "settings": {
                 *         "deduplicate_tokens": true,
                 *         "reactor_egress": "allow_public",
                 *         "elements_allowed_origins": [
                 *           "https://shop.example.com"
                 *         ],
                 *         "console_key_sign_in": true,
                 *         "console_require_mfa": true
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTenantRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Acme",
                     *       "settings": {
                     *         "deduplicate_tokens": false,
                     *         "reactor_egress": "allow_public",
                     *         "elements_allowed_origins": [
                     *           "string"
                     *         ],
                     *         "console_key_sign_in": true,
                     *         "console_require_mfa": true
                     *       },
                     *       "owner_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TenantView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tenants_webhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSecretView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tenants_keys: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "version": 2,
                     *           "active": true,
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "kek_provider": "env"
                     *         }
                     *       ],
                     *       "reencryption": {
                     *         "started_at": "2030-01-31T12:00:00.000Z",
                     *         "kinds": [
                     *           {
                     *             "kind": "tokens",
                     *             "rows_total": 1200,
                     *             "rows_done": 450
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TenantKeysView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tenants_rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSecretView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Members_list: {
        parameters: {
            query?: {
                page?: number;
                size?: number;
                /** @description cursor form: `pagination.next` of the previous page ("" for the first); not with page */
                start?: string;
                /** @description user ids (repeatable) */
                user_id?: string[];
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "user": {
                     *             "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *             "email": "jane@example.com",
                     *             "first_name": "Jane",
                     *             "last_name": "Doe",
                     *             "picture": "string",
                     *             "provider": "https://login.example.com"
                     *           },
                     *           "role": "OWNER",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "created_date": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["MemberPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Members_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the member id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "user": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "email": "jane@example.com",
                     *         "first_name": "Jane",
                     *         "last_name": "Doe",
                     *         "picture": "string",
                     *         "provider": "https://login.example.com"
                     *       },
                     *       "role": "OWNER",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "created_date": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MemberView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description No such member in the tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "No such member in the tenant"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Members_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the member id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "ADMIN"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateMemberRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "user": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "email": "jane@example.com",
                     *         "first_name": "Jane",
                     *         "last_name": "Doe",
                     *         "picture": "string",
                     *         "provider": "https://login.example.com"
                     *       },
                     *       "role": "OWNER",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "created_date": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MemberView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description No such member in the tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "No such member in the tenant"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The member is the owner: transfer ownership first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "status": 409,
                     *       "detail": "The member is the owner: transfer ownership first"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Members_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the member id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description No such member in the tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "No such member in the tenant"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The member is the owner: transfer ownership first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "status": 409,
                     *       "detail": "The member is the owner: transfer ownership first"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Members_owner: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "user": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "email": "jane@example.com",
                     *         "first_name": "Jane",
                     *         "last_name": "Doe",
                     *         "picture": "string",
                     *         "provider": "https://login.example.com"
                     *       },
                     *       "role": "OWNER",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "created_date": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MemberView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description Nobody has joined the tenant yet */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "Nobody has joined the tenant yet"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Members_transferOwner: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "member_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                 *     }
                 */
                "application/json": components["schemas"]["TransferOwnerRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "user": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "email": "jane@example.com",
                     *         "first_name": "Jane",
                     *         "last_name": "Doe",
                     *         "picture": "string",
                     *         "provider": "https://login.example.com"
                     *       },
                     *       "role": "OWNER",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "created_date": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MemberView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            /** @description A person who is not the owner */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "A person who is not the owner"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description No such member in the tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "No such member in the tenant"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Invitations_list: {
        parameters: {
            query?: {
                page?: number;
                size?: number;
                /** @description cursor form: `pagination.next` of the previous page ("" for the first); not with page */
                start?: string;
                status?: "PENDING" | "EXPIRED";
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "email": "jane@example.com",
                     *           "role": "ADMIN",
                     *           "status": "PENDING",
                     *           "expires_at": "2030-01-31T12:00:00.000Z",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["InvitationPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Invitations_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "jane@example.com",
                 *       "role": "ADMIN"
                 *     }
                 */
                "application/json": components["schemas"]["CreateInvitationRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "email": "jane@example.com",
                     *       "role": "ADMIN",
                     *       "status": "PENDING",
                     *       "expires_at": "2030-01-31T12:00:00.000Z",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["InvitationView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description A member has this email, or an invitation for it is pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "status": 409,
                     *       "detail": "A member has this email, or an invitation for it is pending"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Invitations_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the invitation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "email": "jane@example.com",
                     *       "role": "ADMIN",
                     *       "status": "PENDING",
                     *       "expires_at": "2030-01-31T12:00:00.000Z",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["InvitationView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description No such invitation in the tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "No such invitation in the tenant"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Invitations_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the invitation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description No such invitation in the tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "No such invitation in the tenant"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Invitations_resend: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the invitation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "email": "jane@example.com",
                     *       "role": "ADMIN",
                     *       "status": "PENDING",
                     *       "expires_at": "2030-01-31T12:00:00.000Z",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["InvitationView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description No such invitation in the tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "No such invitation in the tenant"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Roles_list: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "name": "OWNER",
                     *         "description": "Manage everything but the owner",
                     *         "permissions": [
                     *           "string"
                     *         ]
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["RoleView"][];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Sessions_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_key": "string",
                     *       "nonce": "string",
                     *       "expires_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CreateSessionResponse"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Sessions_authorize: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "nonce": "5b8c3f0e-6c1d-4c55-9a5b-2f8e4d7c1a90",
                 *       "permissions": [
                 *         "token:create"
                 *       ],
                 *       "rules": [
                 *         {
                 *           "description": "string",
                 *           "priority": 1,
                 *           "container": "/pci/",
                 *           "conditions": [
                 *             {
                 *               "attribute": "id",
                 *               "operator": "equals",
                 *               "value": "/pci/"
                 *             }
                 *           ],
                 *           "transform": "mask",
                 *           "permissions": [
                 *             "token:read"
                 *           ]
                 *         }
                 *       ],
                 *       "expires_at": "2030-01-31T12:00:00.000Z"
                 *     }
                 */
                "application/json": components["schemas"]["AuthorizeSessionRequest"];
            };
        };
        responses: {
            /** @description authorized (empty body) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description Unknown or expired nonce */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "Unknown or expired nonce"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The session is already authorized */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "status": 409,
                     *       "detail": "The session is already authorized"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_list: {
        parameters: {
            query?: {
                page?: number;
                size?: number;
                /** @description cursor form: `pagination.next` of the previous page ("" for the first); not with page */
                start?: string;
                /** @description token ids (repeatable: ?id=a&id=b) */
                id?: string[];
                /** @description token types (repeatable) */
                type?: string[];
                /** @description metadata filter, e.g. metadata.customer=c-42 (any key) */
                "metadata.<key>"?: string;
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "type": "card",
                     *           "data": {
                     *             "number": "############4242",
                     *             "expiration_month": 12,
                     *             "expiration_year": 2030
                     *           },
                     *           "mask": {},
                     *           "fingerprint": "AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X",
                     *           "fingerprint_expression": "{{ data | stringify }}",
                     *           "containers": [
                     *             "/pci/high/"
                     *           ],
                     *           "metadata": {},
                     *           "search_indexes": [
                     *             "string"
                     *           ],
                     *           "expires_at": "2030-01-31T12:00:00.000Z",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["TokenPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "order-7d2f-card",
                 *       "type": "card",
                 *       "data": {
                 *         "number": "4242424242424242",
                 *         "expiration_month": 12,
                 *         "expiration_year": 2030,
                 *         "cvc": "123"
                 *       },
                 *       "token_intent_id": "665bf471-d675-4165-9336-4fc9c1a73fad",
                 *       "mask": {
                 *         "number": "{{ data.number | reveal_last: 4 }}"
                 *       },
                 *       "containers": [
                 *         "/pci/high/"
                 *       ],
                 *       "metadata": {
                 *         "customer": "c-42"
                 *       },
                 *       "search_indexes": [
                 *         "{{ data | last4 }}"
                 *       ],
                 *       "fingerprint_expression": "{{ data.number }}",
                 *       "deduplicate_token": true,
                 *       "expires_at": "2030-01-31T00:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["CreateTokenRequest"];
            };
        };
        responses: {
            /** @description the token, data masked per the caller's access */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "type": "card",
                     *       "data": {
                     *         "number": "############4242",
                     *         "expiration_month": 12,
                     *         "expiration_year": 2030
                     *       },
                     *       "mask": {},
                     *       "fingerprint": "AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X",
                     *       "fingerprint_expression": "{{ data | stringify }}",
                     *       "containers": [
                     *         "/pci/high/"
                     *       ],
                     *       "metadata": {},
                     *       "search_indexes": [
                     *         "string"
                     *       ],
                     *       "expires_at": "2030-01-31T12:00:00.000Z",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description token_intent_id names no token intent (never created, expired or deleted) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "token_intent_id names no token intent (never created, expired or deleted)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /** @description The literal id is taken, the token intent was already converted (or an idempotent repeat is in flight) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "status": 409,
                     *       "detail": "The literal id is taken, the token intent was already converted (or an idempotent repeat is in flight)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the token id (a UUID, or the id given at creation) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "type": "card",
                     *       "data": {
                     *         "number": "############4242",
                     *         "expiration_month": 12,
                     *         "expiration_year": 2030
                     *       },
                     *       "mask": {},
                     *       "fingerprint": "AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X",
                     *       "fingerprint_expression": "{{ data | stringify }}",
                     *       "containers": [
                     *         "/pci/high/"
                     *       ],
                     *       "metadata": {},
                     *       "search_indexes": [
                     *         "string"
                     *       ],
                     *       "expires_at": "2030-01-31T12:00:00.000Z",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the token id (a UUID, or the id given at creation) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the token id (a UUID, or the id given at creation) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "data": {
                 *         "number": "4242424242424242",
                 *         "expiration_month": 12,
                 *         "expiration_year": 2030,
                 *         "cvc": "123"
                 *       },
                 *       "mask": {
                 *         "number": "{{ data.number | reveal_last: 4 }}"
                 *       },
                 *       "containers": [
                 *         "/pci/high/"
                 *       ],
                 *       "metadata": {
                 *         "customer": "c-42"
                 *       },
                 *       "search_indexes": [
                 *         "{{ data | last4 }}"
                 *       ],
                 *       "fingerprint_expression": "{{ data.number }}",
                 *       "deduplicate_token": true,
                 *       "expires_at": "2030-01-31T00:00:00Z"
                 *     }
                 */
                "application/merge-patch+json": components["schemas"]["UpdateTokenPatch"];
            };
        };
        responses: {
            /** @description the updated token (or, with deduplication, the live duplicate it would have become) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "type": "card",
                     *       "data": {
                     *         "number": "############4242",
                     *         "expiration_month": 12,
                     *         "expiration_year": 2030
                     *       },
                     *       "mask": {},
                     *       "fingerprint": "AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X",
                     *       "fingerprint_expression": "{{ data | stringify }}",
                     *       "containers": [
                     *         "/pci/high/"
                     *       ],
                     *       "metadata": {},
                     *       "search_indexes": [
                     *         "string"
                     *       ],
                     *       "expires_at": "2030-01-31T12:00:00.000Z",
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            /** @description The Content-Type is not application/merge-patch+json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unsupported Media Type",
                     *       "status": 415,
                     *       "detail": "The Content-Type is not application/merge-patch+json"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_createIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "card",
                 *       "data": {
                 *         "number": "4242424242424242",
                 *         "expiration_month": 12,
                 *         "expiration_year": 2030,
                 *         "cvc": "123"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateTokenIntentRequest"];
            };
        };
        responses: {
            /** @description the intent: fingerprint and card or bank details, never the data */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "type": "card",
                     *       "fingerprint": "string",
                     *       "card": {
                     *         "bin": "42424242",
                     *         "last4": "4242",
                     *         "expiration_month": 12,
                     *         "expiration_year": 2030,
                     *         "brand": "visa"
                     *       },
                     *       "bank": {
                     *         "routing_number": "110000000",
                     *         "account_number_last4": "6789"
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "expires_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenIntentView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_getIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the token intent id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "type": "card",
                     *       "fingerprint": "string",
                     *       "card": {
                     *         "bin": "42424242",
                     *         "last4": "4242",
                     *         "expiration_month": 12,
                     *         "expiration_year": 2030,
                     *         "brand": "visa"
                     *       },
                     *       "bank": {
                     *         "routing_number": "110000000",
                     *         "account_number_last4": "6789"
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "expires_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenIntentView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_deleteIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the token intent id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_logs: {
        parameters: {
            query?: {
                page?: number;
                size?: number;
                /** @description cursor form: `pagination.next` of the previous page ("" for the first); not with page */
                start?: string;
                /** @description values of GET /logs/entity-types */
                entity_type?: "token" | "token_intent" | "reactor" | "reactor_formula" | "application" | "application_key" | "session" | "tenant" | "webhook_secret" | "webhook" | "webhook_delivery" | "proxy" | "authentication" | "data_key" | "audit_log" | "audit_retention" | "tenant_member" | "tenant_invitation" | "console_session";
                entity_id?: string;
                /** @description ISO 8601: events at or after */
                start_date?: string;
                /** @description ISO 8601: events at or before */
                end_date?: string;
                /** @description the actor's id: an application, session or user id (a person's acts), or the operator's name */
                actor_id?: string;
                actor_type?: "application" | "session" | "user" | "operator" | "anonymous" | "system";
                /** @description the trace id of the request that did it (the response header of that request) */
                trace_id?: string;
                /** @description the act: create, read, update, delete, use, search, invoke, regenerate, authorize, rotate, refuse */
                operation?: string;
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "actor_application_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "actor_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "actor_type": "application",
                     *           "actor_name": "string",
                     *           "message": "Token created",
                     *           "operation": "create",
                     *           "entity_type": "token",
                     *           "entity_id": "string",
                     *           "trace_id": "string",
                     *           "changes": {
                     *             "name": {
                     *               "old": "a",
                     *               "new": "b"
                     *             },
                     *             "key": {
                     *               "redacted": true
                     *             }
                     *           },
                     *           "source": "string",
                     *           "count": 1,
                     *           "created_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_search: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "metadata.customer:c-42 AND type:card",
                 *       "page": 1,
                 *       "size": 20
                 *     }
                 */
                "application/json": components["schemas"]["SearchTokensRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "type": "card",
                     *           "data": {
                     *             "number": "############4242",
                     *             "expiration_month": 12,
                     *             "expiration_year": 2030
                     *           },
                     *           "mask": {},
                     *           "fingerprint": "AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X",
                     *           "fingerprint_expression": "{{ data | stringify }}",
                     *           "containers": [
                     *             "/pci/high/"
                     *           ],
                     *           "metadata": {},
                     *           "search_indexes": [
                     *             "string"
                     *           ],
                     *           "expires_at": "2030-01-31T12:00:00.000Z",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["TokenSearchPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_tokenize: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never> | unknown[] | string | number | boolean;
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11",
                     *       "type": "card_number",
                     *       "data": "############4242"
                     *     }
                     */
                    "application/json": Record<string, never> | unknown[] | string | number | boolean;
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description A literal token id is taken (or an idempotent repeat is in flight) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "status": 409,
                     *       "detail": "A literal token id is taken (or an idempotent repeat is in flight)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Tokens_detokenize: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never> | unknown[] | string | number | boolean;
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "card": {
                     *         "number": "4242424242424242",
                     *         "expiration_month": 12,
                     *         "expiration_year": 2030
                     *       }
                     *     }
                     */
                    "application/json": Record<string, never> | unknown[] | string | number | boolean;
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    TokensV2_list: {
        parameters: {
            query?: {
                /** @description token type (repeatable) */
                type?: string[];
                /** @description exact container, or a prefix ending in * */
                container?: string;
                fingerprint?: string;
                /** @description a JSON object of strings: case-insensitive exact match, ANDed */
                metadata?: string;
                size?: number;
                /** @description pagination.next of the previous page */
                start?: string;
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "page_size": 20,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "type": "card",
                     *           "data": {
                     *             "number": "############4242",
                     *             "expiration_month": 12,
                     *             "expiration_year": 2030
                     *           },
                     *           "mask": {},
                     *           "fingerprint": "AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X",
                     *           "fingerprint_expression": "{{ data | stringify }}",
                     *           "containers": [
                     *             "/pci/high/"
                     *           ],
                     *           "metadata": {},
                     *           "search_indexes": [
                     *             "string"
                     *           ],
                     *           "expires_at": "2030-01-31T12:00:00.000Z",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["TokenCursorPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    TokensV2_search: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "metadata.customer:c-42 AND type:card",
                 *       "size": 20,
                 *       "start": "string"
                 *     }
                 */
                "application/json": components["schemas"]["SearchTokensV2Request"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "page_size": 20,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "c5d0a1e8-3d3b-4a55-8f0e-8d2f8b6a4c11",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "type": "card",
                     *           "data": {
                     *             "number": "############4242",
                     *             "expiration_month": 12,
                     *             "expiration_year": 2030
                     *           },
                     *           "mask": {},
                     *           "fingerprint": "AKCUXS8E9Bnu4XHe5iJrvhzNzwVqBTj1xXyP6YQNqK7X",
                     *           "fingerprint_expression": "{{ data | stringify }}",
                     *           "containers": [
                     *             "/pci/high/"
                     *           ],
                     *           "metadata": {},
                     *           "search_indexes": [
                     *             "string"
                     *           ],
                     *           "expires_at": "2030-01-31T12:00:00.000Z",
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["TokenCursorPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ReactorFormulas_list: {
        parameters: {
            query?: {
                page?: number;
                size?: number;
                /** @description cursor form: `pagination.next` of the previous page ("" for the first); not with page */
                start?: string;
                /** @description case-insensitive substring; * matches any run of characters */
                name?: string;
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "name": "Charge a card",
                     *           "description": "string",
                     *           "type": "official",
                     *           "status": "verified",
                     *           "icon": "string",
                     *           "code": "string",
                     *           "configuration": [
                     *             {
                     *               "name": "API_KEY",
                     *               "description": "string",
                     *               "type": "string"
                     *             }
                     *           ],
                     *           "request_parameters": [
                     *             {
                     *               "name": "card.number",
                     *               "description": "string",
                     *               "type": "string",
                     *               "optional": false
                     *             }
                     *           ],
                     *           "egress": {
                     *             "allow": [
                     *               "api.stripe.com"
                     *             ]
                     *           },
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorFormulaPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ReactorFormulas_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Charge a card",
                 *       "description": "string",
                 *       "icon": "string",
                 *       "code": "module.exports = async function (req) { return { raw: { ok: true } }; };",
                 *       "configuration": [
                 *         {
                 *           "name": "API_KEY",
                 *           "description": "string",
                 *           "type": "string"
                 *         }
                 *       ],
                 *       "request_parameters": [
                 *         {
                 *           "name": "card.number",
                 *           "description": "string",
                 *           "type": "string",
                 *           "optional": false
                 *         }
                 *       ],
                 *       "type": "private",
                 *       "egress": {
                 *         "allow": [
                 *           "api.stripe.com",
                 *           "*.example.com"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ReactorFormulaRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Charge a card",
                     *       "description": "string",
                     *       "type": "official",
                     *       "status": "verified",
                     *       "icon": "string",
                     *       "code": "string",
                     *       "configuration": [
                     *         {
                     *           "name": "API_KEY",
                     *           "description": "string",
                     *           "type": "string"
                     *         }
                     *       ],
                     *       "request_parameters": [
                     *         {
                     *           "name": "card.number",
                     *           "description": "string",
                     *           "type": "string",
                     *           "optional": false
                     *         }
                     *       ],
                     *       "egress": {
                     *         "allow": [
                     *           "api.stripe.com"
                     *         ]
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorFormulaView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ReactorFormulas_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the formula id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Charge a card",
                     *       "description": "string",
                     *       "type": "official",
                     *       "status": "verified",
                     *       "icon": "string",
                     *       "code": "string",
                     *       "configuration": [
                     *         {
                     *           "name": "API_KEY",
                     *           "description": "string",
                     *           "type": "string"
                     *         }
                     *       ],
                     *       "request_parameters": [
                     *         {
                     *           "name": "card.number",
                     *           "description": "string",
                     *           "type": "string",
                     *           "optional": false
                     *         }
                     *       ],
                     *       "egress": {
                     *         "allow": [
                     *           "api.stripe.com"
                     *         ]
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorFormulaView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ReactorFormulas_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the formula id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Charge a card",
                 *       "description": "string",
                 *       "icon": "string",
                 *       "code": "module.exports = async function (req) { return { raw: { ok: true } }; };",
                 *       "configuration": [
                 *         {
                 *           "name": "API_KEY",
                 *           "description": "string",
                 *           "type": "string"
                 *         }
                 *       ],
                 *       "request_parameters": [
                 *         {
                 *           "name": "card.number",
                 *           "description": "string",
                 *           "type": "string",
                 *           "optional": false
                 *         }
                 *       ],
                 *       "type": "private",
                 *       "egress": {
                 *         "allow": [
                 *           "api.stripe.com",
                 *           "*.example.com"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ReactorFormulaRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Charge a card",
                     *       "description": "string",
                     *       "type": "official",
                     *       "status": "verified",
                     *       "icon": "string",
                     *       "code": "string",
                     *       "configuration": [
                     *         {
                     *           "name": "API_KEY",
                     *           "description": "string",
                     *           "type": "string"
                     *         }
                     *       ],
                     *       "request_parameters": [
                     *         {
                     *           "name": "card.number",
                     *           "description": "string",
                     *           "type": "string",
                     *           "optional": false
                     *         }
                     *       ],
                     *       "egress": {
                     *         "allow": [
                     *           "api.stripe.com"
                     *         ]
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorFormulaView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ReactorFormulas_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the formula id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            /** @description A reactor uses the formula */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "status": 409,
                     *       "detail": "A reactor uses the formula"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Reactors_list: {
        parameters: {
            query?: {
                page?: number;
                size?: number;
                /** @description cursor form: `pagination.next` of the previous page ("" for the first); not with page */
                start?: string;
                /** @description case-insensitive substring; * matches any run of characters */
                name?: string;
                /** @description reactor ids (repeatable) */
                id?: string[];
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "name": "Charge card",
                     *           "formula": {
                     *             "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *             "name": "Charge a card",
                     *             "description": "string",
                     *             "type": "official",
                     *             "status": "verified",
                     *             "icon": "string",
                     *             "code": "string",
                     *             "configuration": [
                     *               {
                     *                 "name": "API_KEY",
                     *                 "description": "string",
                     *                 "type": "string"
                     *               }
                     *             ],
                     *             "request_parameters": [
                     *               {
                     *                 "name": "card.number",
                     *                 "description": "string",
                     *                 "type": "string",
                     *                 "optional": false
                     *               }
                     *             ],
                     *             "egress": {
                     *               "allow": [
                     *                 "api.stripe.com"
                     *               ]
                     *             },
                     *             "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *             "created_at": "2030-01-31T12:00:00.000Z",
                     *             "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *             "modified_at": "2030-01-31T12:00:00.000Z"
                     *           },
                     *           "code": "string",
                     *           "runtime": {},
                     *           "application": {
                     *             "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                     *           },
                     *           "configuration": {},
                     *           "egress": {
                     *             "allow": [
                     *               "api.stripe.com"
                     *             ]
                     *           },
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Reactors_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Charge card",
                 *       "configuration": {
                 *         "API_KEY": "sk_test_123"
                 *       },
                 *       "application": {
                 *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                 *       },
                 *       "egress": {
                 *         "allow": [
                 *           "api.stripe.com",
                 *           "*.example.com"
                 *         ]
                 *       },
                 *       "formula": {
                 *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateReactorRequest"] | components["schemas"]["CodeReactorRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Charge card",
                     *       "formula": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "name": "Charge a card",
                     *         "description": "string",
                     *         "type": "official",
                     *         "status": "verified",
                     *         "icon": "string",
                     *         "code": "string",
                     *         "configuration": [
                     *           {
                     *             "name": "API_KEY",
                     *             "description": "string",
                     *             "type": "string"
                     *           }
                     *         ],
                     *         "request_parameters": [
                     *           {
                     *             "name": "card.number",
                     *             "description": "string",
                     *             "type": "string",
                     *             "optional": false
                     *           }
                     *         ],
                     *         "egress": {
                     *           "allow": [
                     *             "api.stripe.com"
                     *           ]
                     *         },
                     *         "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "created_at": "2030-01-31T12:00:00.000Z",
                     *         "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "modified_at": "2030-01-31T12:00:00.000Z"
                     *       },
                     *       "code": "string",
                     *       "runtime": {},
                     *       "application": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                     *       },
                     *       "configuration": {},
                     *       "egress": {
                     *         "allow": [
                     *           "api.stripe.com"
                     *         ]
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description The formula or the application does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "The formula or the application does not exist"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Reactors_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the reactor id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Charge card",
                     *       "formula": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "name": "Charge a card",
                     *         "description": "string",
                     *         "type": "official",
                     *         "status": "verified",
                     *         "icon": "string",
                     *         "code": "string",
                     *         "configuration": [
                     *           {
                     *             "name": "API_KEY",
                     *             "description": "string",
                     *             "type": "string"
                     *           }
                     *         ],
                     *         "request_parameters": [
                     *           {
                     *             "name": "card.number",
                     *             "description": "string",
                     *             "type": "string",
                     *             "optional": false
                     *           }
                     *         ],
                     *         "egress": {
                     *           "allow": [
                     *             "api.stripe.com"
                     *           ]
                     *         },
                     *         "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "created_at": "2030-01-31T12:00:00.000Z",
                     *         "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "modified_at": "2030-01-31T12:00:00.000Z"
                     *       },
                     *       "code": "string",
                     *       "runtime": {},
                     *       "application": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                     *       },
                     *       "configuration": {},
                     *       "egress": {
                     *         "allow": [
                     *           "api.stripe.com"
                     *         ]
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Reactors_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the reactor id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Charge card",
                 *       "configuration": {
                 *         "API_KEY": "sk_test_123"
                 *       },
                 *       "application": {
                 *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                 *       },
                 *       "egress": {
                 *         "allow": [
                 *           "api.stripe.com",
                 *           "*.example.com"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["UpdateReactorRequest"] | components["schemas"]["CodeReactorRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Charge card",
                     *       "formula": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "name": "Charge a card",
                     *         "description": "string",
                     *         "type": "official",
                     *         "status": "verified",
                     *         "icon": "string",
                     *         "code": "string",
                     *         "configuration": [
                     *           {
                     *             "name": "API_KEY",
                     *             "description": "string",
                     *             "type": "string"
                     *           }
                     *         ],
                     *         "request_parameters": [
                     *           {
                     *             "name": "card.number",
                     *             "description": "string",
                     *             "type": "string",
                     *             "optional": false
                     *           }
                     *         ],
                     *         "egress": {
                     *           "allow": [
                     *             "api.stripe.com"
                     *           ]
                     *         },
                     *         "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "created_at": "2030-01-31T12:00:00.000Z",
                     *         "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "modified_at": "2030-01-31T12:00:00.000Z"
                     *       },
                     *       "code": "string",
                     *       "runtime": {},
                     *       "application": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                     *       },
                     *       "configuration": {},
                     *       "egress": {
                     *         "allow": [
                     *           "api.stripe.com"
                     *         ]
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Reactors_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the reactor id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Reactors_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the reactor id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Hello reactor",
                 *       "code": "module.exports = async function (req) { return { raw: { hello: req.args.name } }; };",
                 *       "configuration": {},
                 *       "application": {
                 *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                 *       },
                 *       "runtime": {
                 *         "image": "node-bt"
                 *       },
                 *       "egress": {
                 *         "allow": [
                 *           "api.stripe.com",
                 *           "*.example.com"
                 *         ]
                 *       }
                 *     }
                 */
                "application/merge-patch+json": components["schemas"]["ReactorMergePatch"];
                /**
                 * @example {
                 *       "name": "Hello reactor",
                 *       "code": "module.exports = async function (req) { return { raw: { hello: req.args.name } }; };",
                 *       "configuration": {},
                 *       "application": {
                 *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                 *       },
                 *       "runtime": {
                 *         "image": "node-bt"
                 *       },
                 *       "egress": {
                 *         "allow": [
                 *           "api.stripe.com",
                 *           "*.example.com"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ReactorMergePatch"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "Charge card",
                     *       "formula": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "name": "Charge a card",
                     *         "description": "string",
                     *         "type": "official",
                     *         "status": "verified",
                     *         "icon": "string",
                     *         "code": "string",
                     *         "configuration": [
                     *           {
                     *             "name": "API_KEY",
                     *             "description": "string",
                     *             "type": "string"
                     *           }
                     *         ],
                     *         "request_parameters": [
                     *           {
                     *             "name": "card.number",
                     *             "description": "string",
                     *             "type": "string",
                     *             "optional": false
                     *           }
                     *         ],
                     *         "egress": {
                     *           "allow": [
                     *             "api.stripe.com"
                     *           ]
                     *         },
                     *         "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "created_at": "2030-01-31T12:00:00.000Z",
                     *         "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *         "modified_at": "2030-01-31T12:00:00.000Z"
                     *       },
                     *       "code": "string",
                     *       "runtime": {},
                     *       "application": {
                     *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                     *       },
                     *       "configuration": {},
                     *       "egress": {
                     *         "allow": [
                     *           "api.stripe.com"
                     *         ]
                     *       },
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            /** @description The Content-Type is neither application/merge-patch+json nor application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unsupported Media Type",
                     *       "status": 415,
                     *       "detail": "The Content-Type is neither application/merge-patch+json nor application/json"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Reactors_react: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the reactor id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "args": {
                 *         "card": "{{ 3c5d0a1e-8d2f-4a55-8f0e-8b6a4c113d3b }}",
                 *         "amount": 1200
                 *       },
                 *       "callback_url": "string",
                 *       "timeout_ms": 10000,
                 *       "capture_logs": false
                 *     }
                 */
                "application/json": components["schemas"]["ReactRequest"];
            };
        };
        responses: {
            /** @description the Reactor Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokens": {},
                     *       "raw": {
                     *         "charged": true
                     *       },
                     *       "logs": [
                     *         "string"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ReactResponse"];
                };
            };
            /** @description with callback_url: accepted, the result follows by webhook */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "status": "pending"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactAccepted"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            /** @description The formula threw InvalidPaymentMethodError */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Error",
                     *       "status": 402,
                     *       "detail": "The formula threw InvalidPaymentMethodError"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            /** @description The reactor code does not load */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unprocessable Entity",
                     *       "status": 422,
                     *       "detail": "The reactor code does not load"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            429: components["responses"]["Problem429"];
            /** @description The formula threw ReactorRuntimeError (or anything else): its own answer, not a platform failure */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "The formula threw ReactorRuntimeError (or anything else): its own answer, not a platform failure"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
            /** @description The formula's own answer (CustomHttpResponseError): any status, headers and body, returned as given */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "declined": true,
                     *       "reason": "insufficient funds"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
        };
    };
    Reactors_reactAsync: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the reactor id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "args": {
                 *         "name": "world"
                 *       },
                 *       "timeout_ms": 10000
                 *     }
                 */
                "application/json": components["schemas"]["ReactAsyncRequest"];
            };
        };
        responses: {
            /** @description accepted: the job is stored */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "status": "pending",
                     *       "asyncReactorRequestId": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactAsyncAccepted"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Reactors_result: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the reactor id */
                id: string;
                /** @description the id of the 202 reply */
                requestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "status": "pending",
                     *       "result": {},
                     *       "error": {},
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "completed_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ReactorJobResultView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Webhooks_list: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "status": "enabled",
                     *           "name": "string",
                     *           "url": "string",
                     *           "notify_email": "string",
                     *           "events": [
                     *             "string"
                     *           ],
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Webhooks_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "ledger sync",
                 *       "url": "https://hooks.example.com/coffer",
                 *       "notify_email": "ops@example.com",
                 *       "events": [
                 *         "token.created"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateWebhookRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "status": "enabled",
                     *       "name": "string",
                     *       "url": "string",
                     *       "notify_email": "string",
                     *       "events": [
                     *         "string"
                     *       ],
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z",
                     *       "signing_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedWebhookView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Webhooks_eventTypes: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       "string"
                     *     ]
                     */
                    "application/json": string[];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Webhooks_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "status": "enabled",
                     *       "name": "string",
                     *       "url": "string",
                     *       "notify_email": "string",
                     *       "events": [
                     *         "string"
                     *       ],
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Webhooks_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "ledger sync",
                 *       "url": "https://hooks.example.com/coffer",
                 *       "notify_email": "ops@example.com",
                 *       "events": [
                 *         "token.created"
                 *       ],
                 *       "status": "enabled"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateWebhookRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "status": "enabled",
                     *       "name": "string",
                     *       "url": "string",
                     *       "notify_email": "string",
                     *       "events": [
                     *         "string"
                     *       ],
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Webhooks_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Webhooks_deliveries: {
        parameters: {
            query?: {
                status?: "pending" | "delivered" | "failed";
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the webhook id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "webhook_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "event_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "event_type": "string",
                     *           "status": "pending",
                     *           "attempts": 1,
                     *           "last_error": "string",
                     *           "last_status_code": 1,
                     *           "last_duration_ms": 1,
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "delivered_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Webhooks_resend: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the webhook id */
                id: string;
                /** @description the delivery id (its webhook-id header) */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description queued again: the delivery, pending with no attempts yet */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "webhook_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "event_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "event_type": "string",
                     *       "status": "pending",
                     *       "attempts": 1,
                     *       "last_error": "string",
                     *       "last_status_code": 1,
                     *       "last_duration_ms": 1,
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "delivered_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Ping_ping: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the key is valid */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Proxies_list: {
        parameters: {
            query?: {
                name?: unknown;
                id?: string[];
            };
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pagination": {
                     *         "total_items": 1,
                     *         "page_number": 1,
                     *         "page_size": 20,
                     *         "total_pages": 1,
                     *         "next": "string"
                     *       },
                     *       "data": [
                     *         {
                     *           "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "key": "string",
                     *           "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "name": "string",
                     *           "destination_url": "string",
                     *           "state": "active",
                     *           "request_transforms": [
                     *             {}
                     *           ],
                     *           "response_transforms": [
                     *             {}
                     *           ],
                     *           "request_transform": {},
                     *           "response_transform": {},
                     *           "application_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "configuration": {},
                     *           "require_auth": true,
                     *           "disable_detokenization": true,
                     *           "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "created_at": "2030-01-31T12:00:00.000Z",
                     *           "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *           "modified_at": "2030-01-31T12:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ProxyPage"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Proxies_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Card processor",
                 *       "destination_url": "https://api.processor.example/v1",
                 *       "request_transforms": [
                 *         {}
                 *       ],
                 *       "response_transforms": [
                 *         {}
                 *       ],
                 *       "application": {
                 *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                 *       },
                 *       "configuration": {},
                 *       "require_auth": true,
                 *       "disable_detokenization": false
                 *     }
                 */
                "application/json": components["schemas"]["CreateProxyRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "key": "string",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "string",
                     *       "destination_url": "string",
                     *       "state": "active",
                     *       "request_transforms": [
                     *         {}
                     *       ],
                     *       "response_transforms": [
                     *         {}
                     *       ],
                     *       "request_transform": {},
                     *       "response_transform": {},
                     *       "application_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "configuration": {},
                     *       "require_auth": true,
                     *       "disable_detokenization": true,
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ProxyView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description The application does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "status": 404,
                     *       "detail": "The application does not exist"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Proxies_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the proxy id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "key": "string",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "string",
                     *       "destination_url": "string",
                     *       "state": "active",
                     *       "request_transforms": [
                     *         {}
                     *       ],
                     *       "response_transforms": [
                     *         {}
                     *       ],
                     *       "request_transform": {},
                     *       "response_transform": {},
                     *       "application_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "configuration": {},
                     *       "require_auth": true,
                     *       "disable_detokenization": true,
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ProxyView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Proxies_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the proxy id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Card processor",
                 *       "destination_url": "https://api.processor.example/v1",
                 *       "request_transforms": [
                 *         {}
                 *       ],
                 *       "response_transforms": [
                 *         {}
                 *       ],
                 *       "application": {
                 *         "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a"
                 *       },
                 *       "configuration": {},
                 *       "require_auth": true,
                 *       "disable_detokenization": false
                 *     }
                 */
                "application/json": components["schemas"]["CreateProxyRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "key": "string",
                     *       "tenant_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "name": "string",
                     *       "destination_url": "string",
                     *       "state": "active",
                     *       "request_transforms": [
                     *         {}
                     *       ],
                     *       "response_transforms": [
                     *         {}
                     *       ],
                     *       "request_transform": {},
                     *       "response_transform": {},
                     *       "application_id": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "configuration": {},
                     *       "require_auth": true,
                     *       "disable_detokenization": true,
                     *       "created_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "created_at": "2030-01-31T12:00:00.000Z",
                     *       "modified_by": "3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a",
                     *       "modified_at": "2030-01-31T12:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ProxyView"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Proxies_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the proxy id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    Proxies_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the proxy id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/merge-patch+json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description patched */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            /** @description The Content-Type is neither application/merge-patch+json nor application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unsupported Media Type",
                     *       "status": 415,
                     *       "detail": "The Content-Type is neither application/merge-patch+json nor application/json"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_get[0]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_put[0]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_post[0]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_delete[0]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_patch[0]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_get[1]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the rest of the path, slashes included, appended to the destination */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_put[1]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the rest of the path, slashes included, appended to the destination */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_post[1]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the rest of the path, slashes included, appended to the destination */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_delete[1]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
            };
            path: {
                /** @description the rest of the path, slashes included, appended to the destination */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            414: components["responses"]["Problem414"];
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    "Proxy_patch[1]": {
        parameters: {
            query?: never;
            header: {
                /** @description the destination base URL (https, DNS name) */
                "BT-PROXY-URL": string;
                /** @description correlation id, echoed on the response and carried across services; generated when absent */
                "SVC-TRACE-ID"?: string;
                /** @description the first successful response is stored for 24 h per application and returned for repeats. The IETF `Idempotency-Key` header is accepted too (not on /proxy, where it is forwarded to the destination); two headers with different keys are a 400 */
                "SVC-IDEMPOTENCY-KEY"?: string;
            };
            path: {
                /** @description the rest of the path, slashes included, appended to the destination */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination's answer — its status (200 here, any other as the destination gave it), headers and body as given */
            200: {
                headers: {
                    /** @description the destination's status code */
                    "BT-PROXY-DESTINATION-STATUS"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_1",
                     *       "status": "succeeded"
                     *     }
                     */
                    "*/*": unknown;
                };
            };
            /** @description The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "status": 400,
                     *       "detail": "The destination is missing, not https, an IP address, not reachable or not public; or an expression is invalid or names an unknown token"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            401: components["responses"]["Problem401"];
            403: components["responses"]["Problem403"];
            404: components["responses"]["Problem404"];
            /** @description The destination did not answer within 25 s */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Request Timeout",
                     *       "status": 408,
                     *       "detail": "The destination did not answer within 25 s"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            414: components["responses"]["Problem414"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            /** @description The destination could not be reached, reset the connection, or answered with more than the proxy accepts */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Gateway",
                     *       "status": 502,
                     *       "detail": "The destination could not be reached, reset the connection, or answered with more than the proxy accepts"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    operations_liveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    operations_readiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": {
                     *         "nats": "ok"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ready" | "unavailable";
                        checks: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description not ready (or shutting down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "unavailable",
                     *       "checks": {
                     *         "nats": "failing"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ready" | "unavailable";
                        checks: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
}
