"""titles"""
