-- Workers wait for what causes their work instead of polling (docs/operations.md, "What wakes the workers"). A
-- suspended tenant's asynchronous reactor jobs and webhook deliveries wait in their tables; when the tenant is
-- resumed (the operator CLI clears suspended_at) this notifies reactor-service's job workers and webhook-dispatcher's
-- claims to look at once, rather than at their next safety sweep. Tenants change rarely: the notification costs
-- nothing on the write paths.
CREATE FUNCTION "coffer_notify_tenant_resumed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('coffer_tenant_resumed', NEW."id"::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER "tenants_resumed_notify"
  AFTER UPDATE OF "suspended_at" ON "tenants"
  FOR EACH ROW
  WHEN (OLD."suspended_at" IS NOT NULL AND NEW."suspended_at" IS NULL)
  EXECUTE FUNCTION "coffer_notify_tenant_resumed"();
