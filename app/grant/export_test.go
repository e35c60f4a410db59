package grant

// IDGenerator lets the external tests force an id collision.
var IDGenerator = &newIDs
