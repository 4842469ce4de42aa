"""The HTML pages: views, forms, template tags and charts (templates/ holds their templates).

Dependencies point one way: web -> ratings, jobs -> records -> fourcolor; nothing below imports
this app.
"""
