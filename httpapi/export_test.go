package httpapi

// Internals the external tests (package httpapi_test) check against.
const PermissionsPolicy = permissionsPolicy
