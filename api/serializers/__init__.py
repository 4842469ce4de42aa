"""The API's representations and query parameters, one module per resource."""
