"""core/routes"""
