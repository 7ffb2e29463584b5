// The in-flight shares live in libs/bus: proxy-service shares its calls between tenants the same way.
export { InFlightBudget, InFlightShares } from '@coffer/bus';
