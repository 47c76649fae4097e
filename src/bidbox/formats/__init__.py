"""Formats: the system and its boards written for the tools players use elsewhere.

One module per outside format (BBOalert, BML, BSS, PBN/LIN, HTML notes and convention
cards); every one reads the compiled tree through :mod:`bidbox.formats.tree`, so each
field is derived from the meanings and the regulation's alert decisions.
"""
