"""core/map"""
