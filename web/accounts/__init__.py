"""Accounts with django-allauth: the site's wording of its forms and errors (in our own
catalogues, allauth ships no Vietnamese) and what changes when this site sends no mail."""
